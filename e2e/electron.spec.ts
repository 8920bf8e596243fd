import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import type { PreloadBridge } from '../src/shared/bridge';
import { ROOT } from './host-process';

type PageGlobals = { hearth?: PreloadBridge; require?: unknown };

/** The `electron` package exports its binary's path; with ELECTRON_SKIP_BINARY_DOWNLOAD=1 the file is absent. */
function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null; // the package throws when its binary was never downloaded
  }
}

const binary = electronBinary();

test('the desktop app opens a window showing the personas', async () => {
  const reason = 'no Electron binary: installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1';
  // The list reporter does not show skip reasons; say it where CI logs will show it.
  if (!binary) console.log(`electron smoke test skipped: ${reason}`);
  test.skip(!binary, reason);
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    // The app folder: Electron reads package.json (main, productName) from it. Chromium refuses root without --no-sandbox.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT, '--data-dir', dataDir],
    env: { ...process.env, HEARTH_DATA_DIR: dataDir },
  });
  try {
    const win = await app.firstWindow();
    await expect(win).toHaveTitle(/Hearth/);
    // The preload bridge exists and carries exactly the three functions.
    expect(await win.evaluate(() => Object.keys((globalThis as PageGlobals).hearth ?? {}).sort())).toEqual(['invoke', 'pathForFile', 'subscribe']);
    // Node stays out of the page.
    expect(await win.evaluate(() => typeof (globalThis as PageGlobals).require)).toBe('undefined');
    const res = await win.evaluate(() => (globalThis as PageGlobals).hearth!.invoke('personas.list', {}));
    expect(res).toMatchObject({ ok: true, data: [{ id: 'main' }] });
    await expect(win.getByText('main').first()).toBeVisible();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
