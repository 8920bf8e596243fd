import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { WORKER_ENTRIES, type WorkerName } from './worker-entries';
import { bundledWorker } from './worker-source';

/**
 * Starts one of the core's worker threads (worker-entries.ts names them). In
 * the built app the worker is `<name>.js` beside this chunk (electron.vite.config.ts
 * keeps main-side output flat for exactly this); from source (tests, tsx) it is
 * its .ts entry bundled the same way (worker-source.ts).
 */
export function startWorker(name: WorkerName, options: WorkerOptions = {}): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const core = dirname(here);
    return new Worker(bundledWorker(join(core, WORKER_ENTRIES[name]), join(core, '..', '..')), options);
  }
  return new Worker(join(dirname(here), `${name}.js`), options);
}
