// The core's worker threads, named once. startWorker (workers.ts) finds each
// entry from here: the .ts source when running from source (tests, tsx), the
// bundle `<name>.js` in the built app; electron.vite.config.ts builds one
// bundle per entry from this same table. Values only, no imports: the build
// config reads this file too.
//
// Why not electron-vite's `?modulePath` import suffix: only electron-vite's
// build understands it. Vitest and tsx (tests, bench/ scripts) would import the
// worker module itself into the calling thread. One table serves all three.

/** Bundle name → source path relative to src/core. */
export const WORKER_ENTRIES = {
  'db-worker': 'db/worker.ts',
  'parse-worker': 'parse/worker.ts',
  'embed-worker': 'providers/embeddings/local-worker.ts',
} as const;

export type WorkerName = keyof typeof WORKER_ENTRIES;
