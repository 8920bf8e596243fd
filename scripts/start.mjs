// `npm start`: the desktop app when the Electron binary is installed; otherwise
// (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1) the same app in a browser.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, ROOT } from './build-if-needed.mjs';

/** The `electron` package exports its binary's path, and throws when the binary was never downloaded. */
function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

buildIfNeeded();
const electron = electronBinary();
if (electron) {
  const child = spawn(electron, [ROOT, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  console.log('No Electron binary is installed (npm install ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1),');
  console.log('so Hearth runs in your browser instead: open the URL below (it carries this launch\'s token).');
  await import(pathToFileURL(join(ROOT, 'out', 'main', 'host.js')).href);
}
