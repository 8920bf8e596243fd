import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// Each test works in a persona of its own on the worker's shared host (e2e/README.md).
test.use({ sharedHost: true });

test('supersede a memory in the browser, follow the link to the newer one, and undo it in one click', async ({ host, persona, openApp }) => {
  await host.call('memories.write', { persona, content: 'Lives in Seoul', category: 'home', importance: 8, day: '2026-02-01' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');

  const old = app.memories.row('Lives in Seoul');
  await old.hover();
  await old.getByTestId('memory-replace').click();
  const editor = app.page.getByTestId('memory-replace-editor');
  await editor.getByTestId('memory-content-input').fill('Moved to Berlin in March');
  await editor.getByTestId('memory-day-input').fill('2026-03-10');
  await editor.getByTestId('memory-save').click();
  await expect(editor).toBeHidden();

  // The old one stays, struck through, pointing at the newer one; the newer one says what it replaced.
  const newer = app.memories.row('Moved to Berlin in March');
  await expect(newer).toBeVisible();
  await expect(old).toHaveAttribute('data-superseded', 'true');
  await expect(old.getByTestId('memory-content')).toHaveCSS('text-decoration-line', 'line-through');
  // Each names the other by its words, never by an id.
  await expect(newer.getByTestId('supersedes')).toHaveText('supersedes “Lives in Seoul”');
  await expect(old.getByTestId('superseded-by')).toHaveText('superseded by “Moved to Berlin in March”');
  await expect(app.memories.view).not.toContainText(/\b[0-9a-f]{8}\b/);
  const [stored] = (await host.call('memories.list', { persona, filters: { category: 'home' } })).items.filter((m) => m.content === 'Lives in Seoul');
  expect(stored!.supersededBy).toBeTruthy();
  // Default recall no longer returns the old fact.
  const hits = await host.call('recall', { persona, query: 'where does the user live', limit: 10, kinds: ['memory'] });
  expect(hits.map((h) => h.content)).not.toContain('Lives in Seoul');

  await old.getByTestId('superseded-by').click();
  const focused = app.page.getByTestId('focused-memory');
  await expect(focused.getByTestId('memory-content')).toHaveText('Moved to Berlin in March');
  await focused.getByTestId('focused-close').click();

  // The history shows the supersession with who made it.
  await old.getByTestId('memory-history').locator('summary').click();
  await expect(old.getByTestId('version').first().getByTestId('version-change')).toHaveText('superseded by you');

  await old.getByTestId('memory-unsupersede').click();
  await expect(old).toHaveAttribute('data-superseded', 'false');
  await expect(newer.getByTestId('supersedes')).toHaveCount(0);
  expect((await host.call('memories.get', { id: stored!.id })).supersededBy).toBeNull();
  await app.screenshot('memory-history');

  // The activity log lists both acts, newest first.
  await app.go('activity');
  await expect(app.page.getByTestId('activity-item').first().getByTestId('activity-change')).toHaveText('supersession undone by you');
  await expect(app.errorToasts()).toHaveCount(0);
});

test('a memory edit and a user-model change can be read as a diff and restored from the History disclosure', async ({ host, persona, openApp }) => {
  const m = await host.call('memories.write', { persona, content: 'Works as a nurse in Leeds', category: 'job', importance: 7 });
  await host.call('memories.update', { id: m.id, content: 'Works as a midwife in Leeds' });
  await host.call('userModel.upsert', { persona, dimension: 'preferences', content: 'Tea in the morning', confidence: 6 });
  await host.call('userModel.upsert', { persona, dimension: 'preferences', content: 'Coffee in the morning', confidence: 8 });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');

  const row = app.memories.row('Works as a midwife in Leeds');
  await row.getByTestId('memory-history').locator('summary').click();
  const latest = row.getByTestId('version').first();
  await expect(latest.getByTestId('version-diff').locator('del')).toHaveText(['nurse']);
  await expect(latest.getByTestId('version-diff').locator('ins')).toHaveText(['midwife']);
  await row.locator('[data-version="1"]').getByTestId('version-restore').click();
  await expect(app.memories.row('Works as a nurse in Leeds')).toBeVisible();
  expect((await host.call('memories.get', { id: m.id })).content).toBe('Works as a nurse in Leeds');

  await app.go('userModel');
  const dim = app.userModel.row('preferences');
  await dim.getByTestId('dimension-history').locator('summary').click();
  await expect(dim.getByTestId('version').first().getByTestId('version-change')).toHaveText('set by you');
  await dim.locator('[data-version="1"]').getByTestId('version-restore').click();
  await expect(dim.getByTestId('dimension-content')).toHaveText('Tea in the morning');
  await expect(app.userModel.preview).toContainText('- [preferences, conf=6] Tea in the morning');

  await app.go('activity');
  await app.page.getByTestId('activity-kind').selectOption('userModel');
  await expect(app.page.getByTestId('activity-item')).toHaveCount(3);
  await expect(app.page.getByTestId('activity-item').first()).toContainText('preferences: Tea in the morning');
  await expect(app.page.getByTestId('activity-item').nth(1)).toContainText('preferences: Coffee in the morning');
  await app.page.getByTestId('activity-actor').selectOption('mcp');
  await expect(app.page.getByTestId('activity-empty')).toBeVisible();
  await expect(app.errorToasts()).toHaveCount(0);
});
