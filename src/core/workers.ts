import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { WORKER_ENTRIES, type WorkerName } from './worker-entries';

/**
 * Starts one of the core's worker threads (worker-entries.ts names them). From
 * source (tests, tsx) the worker is its .ts file, loaded through tsx's loader;
 * in the built app it is `<name>.js` beside this chunk (electron.vite.config.ts
 * keeps main-side output flat for exactly this).
 */
export function startWorker(name: WorkerName, options: WorkerOptions = {}): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const url = pathToFileURL(join(dirname(here), WORKER_ENTRIES[name])).href;
    // Workers ignore --import in execArgv on Node 20, so register tsx from inside.
    // tsx stays active only while the entry's static graph loads: it also rewrites
    // every package file that uses import(), and pdfjs's 3 MB took ~2 s to load
    // through it. Later lazy imports are packages, loaded natively as in the built
    // app; a worker must not lazily import our own .ts files.
    const boot =
      `import('tsx/esm/api').then(async (m) => { const off = m.register(); await import(${JSON.stringify(url)}); ` +
      `await off(); process.setSourceMapsEnabled(true); })`;
    return new Worker(boot, { ...options, eval: true });
  }
  return new Worker(join(dirname(here), `${name}.js`), options);
}
