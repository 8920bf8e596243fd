// The database thread and PGlite's compiled WebAssembly, begun the moment a
// door's process starts (docs/startup.md, "What waits, and for what"). Neither
// touches a data folder, and together they take a few hundred milliseconds
// that would otherwise come after the app's code has loaded and the folder has
// been checked and locked: started first, they run beside both. Kept apart
// from the rest of the core so that the door's first lines can load it alone.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers';
import { pgliteWasmModule } from './pglite-wasm';

interface Spare {
  worker: Worker;
  gone: boolean;
}

/** The thread started ahead, until the first database of the process takes it. */
let spare: Spare | null = null;

/** Starts the database thread and the WebAssembly compile now; the first database opened takes both. Returns the thread. */
export function warmDatabase(): Worker {
  if (spare) return spare.worker;
  const entry: Spare = { worker: startWorker('db-worker'), gone: false };
  // Until a database takes it, the spare keeps no process alive (a start refused
  // before the database opens still exits) and a failure of its own crashes nothing:
  // the database then starts a thread of its own, as without a warm start.
  entry.worker.unref();
  entry.worker.once('error', () => (entry.gone = true));
  entry.worker.once('exit', () => (entry.gone = true));
  spare = entry;
  void pgliteWasmModule();
  return entry.worker;
}

/** A start that uses a PostgreSQL server instead (docs/server-mode.md) stops the thread nobody will take. */
export function releaseWarmDatabase(): void {
  const taken = spare;
  spare = null;
  void taken?.worker.terminate();
}

/** The thread warmDatabase started, if it is still there and nobody took it yet; else a new one. */
export function databaseWorker(): Worker {
  const taken = spare;
  spare = null;
  if (taken && !taken.gone) {
    taken.worker.ref();
    return taken.worker;
  }
  return startWorker('db-worker');
}
