import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// Take your memory with you: export a persona from its menu, delete it, import
// the file, and find the same memories, user model and knowledge results.

test('export a persona, delete it, import the file: everything is back', async ({ host, openApp }, info) => {
  test.setTimeout(240_000);
  await host.call('personas.create', { name: 'Reisen' });
  await host.call('memories.write', { persona: 'reisen', content: 'Zug nach Zürich um 7:04, Gleis 12', category: 'travel', importance: 8, day: '2025-03-04' });
  await host.call('memories.write', { persona: 'reisen', content: 'Hotel in Kyōto booked for April' });
  await host.call('userModel.upsert', { persona: 'reisen', dimension: 'preferences', content: 'Window seats, never the aisle' });
  await host.call('knowledge.ingest', {
    persona: 'reisen',
    name: 'packliste.md',
    dataBase64: Buffer.from('# Packliste\n\nPassport, rail pass, umbrella for the Swiss Alps.').toString('base64'),
  });
  const settled = async () => {
    const s = await host.call('jobs.list', { limit: 500 });
    return s.counts.available + s.counts.running + s.counts.retryable;
  };
  await expect.poll(settled, { timeout: 120_000 }).toBe(0);
  const query = { persona: 'reisen', query: 'train to Zürich and the Alps', limit: 5 };
  const before = (await host.call('recall', query)).map((h) => h.content);
  const modelBefore = (await host.call('userModel.list', { persona: 'reisen' })).map((u) => [u.dimension, u.content]);

  const app = new AppPage(await openApp());
  await app.ready();
  await app.personas.switchTo('reisen');

  // Export from the persona's menu: the browser downloads Reisen.hearth.
  const item = app.personas.item('reisen');
  await item.hover();
  const download = app.page.waitForEvent('download');
  await item.getByTestId('persona-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Reisen.hearth');
  const path = info.outputPath('Reisen.hearth');
  await file.saveAs(path);
  await expect(app.page.getByTestId('export-done')).toContainText('Reisen.hearth');
  await app.page.getByTestId('export-close').click();
  expect(gunzipSync(readFileSync(path)).toString()).toContain('Zug nach Zürich');

  // Delete it, for good.
  const dialog = await app.personas.openDelete('reisen');
  await dialog.getByTestId('delete-confirm-input').fill('Reisen');
  await dialog.getByTestId('delete-confirm').click();
  // Deleting backs the data folder up first (docs/data-safety.md): slow on a busy machine.
  await expect(dialog).toBeHidden({ timeout: 90_000 });
  await expect(app.personas.item('reisen')).toHaveCount(0);

  // Import the file: the persona comes back and becomes the active one.
  await app.page.getByTestId('persona-import-input').setInputFiles(path);
  await expect(app.personas.item('reisen')).toBeVisible({ timeout: 60_000 });
  await expect(app.personas.item('reisen')).toHaveAttribute('data-active', 'true');
  await app.go('memories');
  await expect(app.memories.row('Zug nach Zürich um 7:04, Gleis 12')).toBeVisible();
  await expect(app.memories.row('Hotel in Kyōto booked for April')).toBeVisible();
  await app.screenshot('persona-imported');

  expect((await host.call('userModel.list', { persona: 'reisen' })).map((u) => [u.dimension, u.content])).toEqual(modelBefore);
  // Same model: the file's vectors are reused; they join the search index in the background (docs/export.md).
  await expect.poll(settled, { timeout: 120_000 }).toBe(0);
  const memories = (await host.call('memories.list', { persona: 'reisen', limit: 10 })).items;
  expect(memories.map((m) => m.embeddingStatus)).toEqual(['current', 'current']);
  expect((await host.call('recall', query)).map((h) => h.content)).toEqual(before);
});

// Only its own persona's memories: in a persona of its own on the worker's shared host (e2e/README.md).
// The export test above deletes a persona (a backup of the whole folder first) and waits for every job: a host of its own.
test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('Memories → Import…: a pasted list is previewed, duplicates are skipped', async ({ host, persona, openApp }) => {
    await host.call('memories.write', { persona, content: 'Likes green tea' });
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('memories');
    await app.page.getByTestId('memory-import').click();
    const dialog = app.page.getByTestId('import-memories-dialog');
    await dialog.getByTestId('import-text').fill('- 2025-03-04: Started the pottery course\n- likes green tea.\n- Moved to Lyon');
    await dialog.getByTestId('import-preview-button').click();
    await expect(dialog.getByTestId('import-summary')).toHaveText('2 memories to add, 1 duplicate to skip.');
    await expect(dialog.locator('[data-status="duplicate"]')).toContainText('likes green tea.');
    expect((await host.call('memories.list', { persona })).items).toHaveLength(1); // nothing written yet
    await dialog.getByTestId('import-confirm').click();
    await expect(dialog).toBeHidden();
    await expect(app.memories.row('Started the pottery course')).toBeVisible();
    await expect(app.memories.row('Moved to Lyon')).toBeVisible();
    const pottery = (await host.call('memories.list', { persona })).items.find((m) => m.content.includes('pottery'));
    expect(pottery).toMatchObject({ day: '2025-03-04', origin: 'import' });
  });
});
