import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// Near-duplicates (docs/duplicates.md), each test in a persona of its own on the worker's shared host.
test.use({ sharedHost: true });

test('a pasted ChatGPT list: paraphrases of stored memories are marked in the preview and not imported', async ({ host, persona, openApp }) => {
  await host.call('memories.write', { persona, content: 'User is allergic to peanuts.' });
  await host.call('memories.write', { persona, content: 'User has a daughter named Ada who loves chess.' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await app.page.getByTestId('memory-import').click();
  const dialog = app.page.getByTestId('import-memories-dialog');
  await dialog.getByTestId('import-format').selectOption('chatgpt');
  await dialog.getByTestId('import-text').fill("User has a peanut allergy.\nUser's daughter Ada loves playing chess.\nUser is allergic to shellfish.");
  await dialog.getByTestId('import-preview-button').click();
  await expect(dialog.getByTestId('import-summary')).toHaveText('1 memory to add, 0 duplicates and 2 near-duplicates to skip.');
  await expect(dialog.locator('[data-status="near-duplicate"]')).toHaveText([
    'User has a peanut allergy. — already a memory in other words',
    "User's daughter Ada loves playing chess. — already a memory in other words",
  ].map((t) => new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))));
  await dialog.getByTestId('import-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(app.memories.row('User is allergic to shellfish.')).toBeVisible();
  const stored = (await host.call('memories.list', { persona })).items.map((m) => m.content).sort();
  expect(stored).toEqual(['User has a daughter named Ada who loves chess.', 'User is allergic to peanuts.', 'User is allergic to shellfish.']);
});

test('the new-memory editor says "Similar to" while typing, and Update that one changes the stored memory', async ({ host, persona, openApp }) => {
  const saved = await host.call('memories.write', { persona, content: 'User is allergic to peanuts.' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await app.page.getByTestId('memory-new').click();
  const editor = app.memories.view.getByTestId('memory-editor');
  await editor.getByTestId('memory-content-input').pressSequentially('User has a severe peanut allergy');
  await expect(editor.getByTestId('similar-memory')).toBeVisible();
  await expect(editor.getByTestId('similar-content')).toHaveText('User is allergic to peanuts.');
  await editor.getByTestId('similar-update').click();
  await expect(editor).toBeHidden();
  await expect(app.memories.row('User has a severe peanut allergy')).toBeVisible();
  await expect(app.memories.rows).toHaveCount(1);
  const stored = (await host.call('memories.list', { persona })).items;
  expect(stored.map((m) => [m.id, m.content])).toEqual([[saved.id, 'User has a severe peanut allergy']]);
});

test('Tidy up shows a group of near-duplicates, and Merge leaves one current memory', async ({ host, persona, openApp }) => {
  await host.call('memories.write', { persona, content: 'User likes jazz.' });
  const keep = await host.call('memories.write', { persona, content: 'User enjoys jazz music.', importance: 7 });
  await host.call('memories.write', { persona, content: 'User no longer likes opera.' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await app.page.getByTestId('memory-tidy').click();
  const dialog = app.page.getByTestId('tidy-up-dialog');
  await expect(dialog.getByTestId('tidy-group')).toHaveCount(1);
  await expect(dialog.getByTestId('tidy-group')).toContainText('User likes jazz.');
  await expect(dialog.getByTestId('tidy-group')).toContainText('User enjoys jazz music.');
  await dialog.getByTestId('tidy-merge').click();
  await expect(dialog.getByTestId('tidy-group')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(app.memories.view.locator('[data-testid="memory-row"][data-superseded="false"]')).toHaveCount(2);
  await expect(app.memories.row('User likes jazz.')).toHaveAttribute('data-superseded', 'true');
  const jazz = (await host.call('memories.list', { persona })).items.filter((m) => /jazz/.test(m.content) && !m.supersededBy);
  expect(jazz.map((m) => m.id)).toEqual([keep.id]);
});
