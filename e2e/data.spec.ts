import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

const contents = async (host: { call: (m: 'memories.list', a: { persona: string; limit: number }) => Promise<{ items: { content: string }[] }> }) =>
  (await host.call('memories.list', { persona: 'main', limit: 50 })).items.map((m) => m.content).sort();

test('Settings → Data: back up now, then restore that backup after a confirmation naming what it replaces', async ({ host, page, openApp }) => {
  test.setTimeout(300_000);
  await host.call('memories.write', { persona: 'main', content: 'My cat is called Pixel' });
  const app = new AppPage(await openApp(page));
  await app.ready();
  await app.go('settings');
  const data = page.getByTestId('data-view');
  await data.scrollIntoViewIfNeeded();
  await expect(data.getByTestId('backups-empty')).toBeVisible();

  await data.getByTestId('backup-now').click();
  const row = data.getByTestId('backup-row');
  await expect(row).toHaveCount(1, { timeout: 180_000 });
  await expect(row.getByTestId('backup-verified')).toHaveText('Verified');
  await expect(row.getByTestId('backup-counts')).toContainText('1 memory');

  // Later the memory is changed and another one is added; the user wants the backup back.
  await host.call('memories.write', { persona: 'main', content: 'I started learning Welsh' });
  expect(await contents(host)).toEqual(['I started learning Welsh', 'My cat is called Pixel']);

  await row.getByTestId('restore-open').click();
  const dialog = page.getByTestId('restore-dialog');
  await expect(dialog.getByTestId('restore-replaces')).toContainText('Everything Hearth holds now');
  await expect(dialog.getByTestId('restore-replaces')).toContainText('1 memory');
  await dialog.getByTestId('restore-confirm').click();

  await app.ready();
  await app.go('settings');
  // The restored state, and the state it replaced kept as its own backup.
  await expect(page.getByTestId('backup-row')).toHaveCount(2, { timeout: 180_000 });
  await expect(page.getByTestId('backup-row').first()).toContainText('Before a restore');
  expect(await contents(host)).toEqual(['My cat is called Pixel']);

  await page.getByTestId('check-integrity').click();
  await expect(page.getByTestId('integrity-result')).toContainText('Integrity check passed', { timeout: 120_000 });
});
