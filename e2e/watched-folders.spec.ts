import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCorruptPdf } from '../src/core/testing/test-pdfs';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// The e2e hosts are started with HEARTH_WATCH_DIRS=<data folder>/watched (e2e/host-process.ts).
test.use({ sharedHost: true });

test('watch a folder from the browser: a folder outside the allowed ones is refused; the files come in, errors named; unwatch', async ({ host, persona, openApp }) => {
  const allowed = join(host.dataDir, 'watched');
  const folder = join(allowed, `notes-${persona}`);
  mkdirSync(join(folder, 'sub'), { recursive: true });
  writeFileSync(join(folder, 'heron.md'), 'Grey herons nest in colonies called heronries.');
  writeFileSync(join(folder, 'sub', 'tide.txt'), 'The spring tide peaks two days after the full moon.');
  writeFileSync(join(folder, 'broken.pdf'), makeCorruptPdf());

  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('knowledge');
  const page = app.page;
  await page.getByTestId('watch-add').click();
  const field = page.getByTestId('watch-folder-input');
  await expect(field).toHaveValue(allowed);

  await field.fill('/etc');
  await page.getByTestId('watch-submit').click();
  await expect(page.getByTestId('watch-refusal')).toContainText('not inside the folders this Hearth was started with');

  await field.fill(folder);
  await page.getByTestId('watch-submit').click();
  const row = page.locator(`[data-testid="watch-row"][data-folder="${folder}"]`);
  await expect(row.getByTestId('watch-counts')).toHaveText('2 ingested · 1 with errors', { timeout: 30_000 });
  await expect(page.getByTestId('watch-refusal')).toHaveCount(0);
  const broken = row.locator('[data-testid="watch-file"][data-path="broken.pdf"]');
  await expect(broken).toHaveAttribute('data-state', 'error');
  await expect(broken.getByTestId('watch-file-error')).toContainText('broken.pdf');
  await expect(page.locator(`[data-testid="source-row"][data-source="notes-${persona}/sub/tide.txt"]`)).toBeVisible();

  // A file saved into the folder shows up without anything clicked.
  writeFileSync(join(folder, 'quince.md'), 'Quince jelly sets best with a squeeze of lemon.');
  await expect(row.getByTestId('watch-counts')).toHaveText('3 ingested · 1 with errors', { timeout: 30_000 });

  await row.getByTestId('watch-unwatch').click();
  await expect(row).toHaveCount(0);
  expect((await host.call('knowledge.watches', { persona })).watches).toEqual([]);
});
