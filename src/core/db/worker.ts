// The database thread: the only place PGlite runs. PGlite's WASM blocks the
// thread it runs on, so it must never share a thread with anything that serves
// the UI. One connection, requests answered strictly in arrival order.
// First: every file PGlite creates is private to the user (see private-modes.ts).
import './private-modes';
import { parentPort } from 'node:worker_threads';
import type { PGlite, SerializerOptions } from '@electric-sql/pglite';
import type { DurableNodeFS } from './durable-fs';
import { openPglite } from './pglite';
import type { DbErrorShape, DbRequest, DbResponse } from './protocol';

let db: PGlite | null = null;
let files: DurableNodeFS | null = null;
// PGlite's types say a serializer returns a string; it also sends a Uint8Array as binary.
let serializers = {} as SerializerOptions;
/**
 * Why Postgres' backend ended, once it has. After a PANIC (a full disk while
 * the log writer makes a new segment) PGlite's WebAssembly has aborted in the
 * middle of a commit but still looks ready, and its next statement spins for
 * ever; so nothing is sent to it again (docs/durability.md, "After a full disk").
 */
let stopped: DbErrorShape | null = null;

async function open(req: Extract<DbRequest, { op: 'open' }>): Promise<{ vectorOid: number }> {
  const { dataDir, durableCommits, loadFrom, wasmModule } = req;
  const opened = await openPglite(dataDir, { durableCommits, ...(loadFrom ? { loadFrom } : {}), ...(wasmModule ? { wasmModule } : {}) });
  db = opened.pg;
  files = opened.files;
  stopped = null;
  // Vectors arrive already in pgvector's binary wire format (see vector.ts): ~15x faster than text.
  serializers = { [opened.vectorOid]: (x: Uint8Array) => x } as unknown as SerializerOptions;
  return { vectorOid: opened.vectorOid };
}

/** Emscripten's errno for "no space left on device" (its WASI numbering, not Linux's 28). */
const EMSCRIPTEN_ENOSPC = 51;

function toErrorShape(e: unknown): DbErrorShape {
  const err = e as { name?: string; errno?: number; message?: string; code?: string; detail?: string; hint?: string; severity?: string };
  // PGlite's filesystem throws Emscripten ErrnoErrors, which carry no message: a full disk
  // (loading a snapshot, writing files) becomes Postgres' own "disk full" SQLSTATE.
  if (err?.name === 'ErrnoError' && typeof err.errno === 'number') {
    return err.errno === EMSCRIPTEN_ENOSPC
      ? { message: 'No space left on device', sqlState: '53100' }
      : { message: `file system error (errno ${err.errno})` };
  }
  return {
    message: err?.message ?? String(e),
    ...(err?.code ? { sqlState: err.code } : {}),
    ...(err?.detail ? { detail: err.detail } : {}),
    ...(err?.hint ? { hint: err.hint } : {}),
    ...(err?.severity === 'PANIC' || err?.severity === 'FATAL' ? { stopped: true } : {}),
  };
}

/** The error every statement meets once the backend has ended. */
class BackendStopped extends Error {
  constructor(readonly shape: DbErrorShape) {
    super(shape.message);
  }
}

function requireRunning(): void {
  if (stopped) throw new BackendStopped(stopped);
}

function requireDb(): PGlite {
  if (!db) throw new Error('database is not open');
  return db;
}

async function handle(req: DbRequest): Promise<unknown> {
  switch (req.op) {
    case 'open':
      return open(req);
    case 'query': {
      requireRunning();
      const t = performance.now();
      // A blob feeds `COPY … FROM '/dev/blob'` (bulk import, docs/export.md): rows without a statement each.
      const r = await requireDb().query(req.sql, req.params, { serializers, ...(req.blob ? { blob: new Blob([req.blob]) } : {}) });
      // `COPY … TO '/dev/blob'` hands its output back as a blob (export's bulk read, docs/export.md).
      const out = r.blob ? new Uint8Array(await r.blob.arrayBuffer()) : undefined;
      return { rows: r.rows, affectedRows: r.affectedRows ?? 0, ms: performance.now() - t, ...(out ? { blob: out } : {}) };
    }
    case 'exec':
      requireRunning();
      await requireDb().exec(req.sql);
      return null;
    case 'dump': {
      requireRunning();
      const blob = await requireDb().dumpDataDir(req.compression);
      return new Uint8Array(await blob.arrayBuffer());
    }
    case 'durability':
      files?.setDurableCommits(req.durableCommits);
      return null;
    case 'syncCounts':
      return files ? { ...files.counts } : null;
    case 'close':
      // A backend that ended cannot shut down cleanly (its next call would spin): only the syncs below matter.
      if (db && !stopped) await db.close();
      // Background WAL syncs still running finish before the worker may be stopped.
      files?.flushWal();
      db = null;
      files = null;
      return null;
  }
}

const port = parentPort;
if (!port) throw new Error('db worker must run in a worker thread');
let queue: Promise<void> = Promise.resolve();
port.on('message', (req: DbRequest) => {
  queue = queue.then(async () => {
    let res: DbResponse;
    try {
      res = { id: req.id, ok: true, result: await handle(req) };
    } catch (e) {
      const error = e instanceof BackendStopped ? e.shape : toErrorShape(e);
      if (error.stopped) stopped ??= error;
      res = { id: req.id, ok: false, error };
    }
    port.postMessage(res);
  });
});
