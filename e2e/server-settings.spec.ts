import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { closedPort } from '../src/core/testing/ports';

// Settings → Data → "Use a PostgreSQL server", the part that needs no server:
// a refused connection is said plainly, nothing can be copied, nothing is saved.
// The copy itself is tested against a real server in src/core/server-switch/server-switch.test.ts.

test('a server that refuses the connection: a clear message, no copy, nothing saved', async ({ host, page, openApp }) => {
  const PASSWORD = 'pw-e2e-51d0c3';
  const port = await closedPort();
  const app = new AppPage(await openApp(page));
  await app.ready();
  await app.go('settings');
  const where = page.getByTestId('database-where');
  await where.scrollIntoViewIfNeeded();
  await expect(where.getByTestId('database-active')).toContainText('on this computer');

  await where.getByTestId('database-open').click();
  const dialog = page.getByTestId('database-dialog');
  await dialog.getByTestId('database-url').fill(`postgres://hearth:${PASSWORD}@127.0.0.1:${port}/hearth`);
  await dialog.getByTestId('database-test').click();
  const result = dialog.getByTestId('database-test-result');
  await expect(result).toContainText(`hearth@127.0.0.1:${port}/hearth: the connection was refused`, { timeout: 30_000 });
  await expect(result).not.toContainText(PASSWORD);
  await expect(dialog.getByTestId('database-copy')).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Nothing saved: the next start still uses this computer's data, and the password is nowhere on disk.
  expect(await host.call('database.get', {})).toEqual({ active: { kind: 'local' }, saved: null, savedFailed: null, restartNeeded: false });
  const secrets = join(host.dataDir, 'secrets.json');
  if (existsSync(secrets)) expect(readFileSync(secrets, 'utf8')).not.toContain(PASSWORD);
  await expect(where.getByTestId('database-saved')).toHaveCount(0);
});
