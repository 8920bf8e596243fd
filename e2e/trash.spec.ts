import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// The trash (docs/trash.md): a memory deleted in the browser outlives the Undo toast and comes back
// from the Trash view whole — same id, versions, vector.
test.use({ sharedHost: true });

test('a memory deleted past its Undo comes back from the Trash view with its id, versions and vector', async ({ host, persona, openApp }) => {
  const m = await host.call('memories.write', { persona, content: 'Works as a nurse in Leeds', category: 'job', importance: 7 });
  await host.call('memories.update', { id: m.id, content: 'Works as a midwife in Leeds' });
  await expect.poll(async () => (await host.call('memories.get', { id: m.id })).embeddingStatus, { timeout: 60_000 }).toBe('current');
  const byMeaning = async () => (await host.call('recall', { persona, query: 'which job do I do', kinds: ['memory'] })).find((h) => h.id === m.id);
  const before = (await byMeaning())!.score.cosine;
  expect(before).not.toBeNull();

  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await app.memories.delete('Works as a midwife in Leeds');
  // The Undo offer goes away on its own; the memory is in the trash, out of recall.
  await expect(app.toasts.filter({ hasText: 'Memory deleted' })).toBeHidden({ timeout: 60_000 });
  expect(await byMeaning()).toBeUndefined();

  await app.go('trash');
  const item = app.page.getByTestId('trash-item').filter({ hasText: 'Works as a midwife in Leeds' });
  await expect(item.getByTestId('trash-when')).toContainText('removed for good');
  await item.getByTestId('trash-restore').click();
  await expect(item).toHaveCount(0);
  await expect(app.page.getByTestId('trash-nothing')).toBeVisible();

  const back = await host.call('memories.get', { id: m.id });
  expect(back).toMatchObject({ id: m.id, content: 'Works as a midwife in Leeds', category: 'job', importance: 7, embeddingStatus: 'current' });
  // The same vector: found by meaning at the same closeness, with nothing embedded again.
  expect((await byMeaning())!.score.cosine).toBe(before);

  await app.go('memories');
  const row = app.memories.row('Works as a midwife in Leeds');
  await row.getByTestId('memory-history').locator('summary').click();
  await expect(row.getByTestId('version')).toHaveCount(4);
  await expect(row.locator('[data-version="1"]')).toContainText('Works as a nurse in Leeds');
  await expect(app.errorToasts()).toHaveCount(0);
});
