// The database thread: the only place PGlite runs. PGlite's WASM blocks the
// thread it runs on, so it must never share a thread with anything that serves
// the UI. One connection, requests answered strictly in arrival order.
import { parentPort } from 'node:worker_threads';
import { PGlite, type SerializerOptions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { pageinspect } from '@electric-sql/pglite/contrib/pageinspect';
import type { DbErrorShape, DbRequest, DbResponse } from './protocol';

const DATE_OID = 1082;

let db: PGlite | null = null;
// PGlite's types say a serializer returns a string; it also sends a Uint8Array as binary.
let serializers = {} as SerializerOptions;

async function open(dataDir: string | null, loadFrom?: Uint8Array): Promise<{ vectorOid: number }> {
  db = new PGlite(dataDir ?? undefined, {
    // amcheck and pageinspect: the integrity check (integrity.ts) reads every table and index with them.
    extensions: { vector, pg_textsearch, amcheck, pageinspect },
    // A calendar day stays a 'YYYY-MM-DD' string: a Date would shift with the time zone.
    parsers: { [DATE_OID]: (x: string) => x },
    ...(loadFrom ? { loadDataDir: new Blob([loadFrom]) } : {}),
  });
  await db.waitReady;
  await db.exec(
    'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_textsearch; CREATE EXTENSION IF NOT EXISTS amcheck; ' +
      'CREATE EXTENSION IF NOT EXISTS pageinspect;',
  );
  const res = await db.query<{ oid: number }>(`SELECT oid FROM pg_type WHERE typname = 'vector'`);
  const vectorOid = res.rows[0]!.oid;
  // Vectors arrive already in pgvector's binary wire format (see vector.ts): ~15x faster than text.
  serializers = { [vectorOid]: (x: Uint8Array) => x } as unknown as SerializerOptions;
  return { vectorOid };
}

function toErrorShape(e: unknown): DbErrorShape {
  const err = e as { message?: string; code?: string; detail?: string; hint?: string };
  return {
    message: err?.message ?? String(e),
    ...(err?.code ? { sqlState: err.code } : {}),
    ...(err?.detail ? { detail: err.detail } : {}),
    ...(err?.hint ? { hint: err.hint } : {}),
  };
}

function requireDb(): PGlite {
  if (!db) throw new Error('database is not open');
  return db;
}

async function handle(req: DbRequest): Promise<unknown> {
  switch (req.op) {
    case 'open':
      return open(req.dataDir, req.loadFrom);
    case 'query': {
      const r = await requireDb().query(req.sql, req.params, { serializers });
      return { rows: r.rows, affectedRows: r.affectedRows ?? 0 };
    }
    case 'exec':
      await requireDb().exec(req.sql);
      return null;
    case 'dump': {
      const blob = await requireDb().dumpDataDir('gzip');
      return new Uint8Array(await blob.arrayBuffer());
    }
    case 'close':
      if (db) await db.close();
      db = null;
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
      res = { id: req.id, ok: false, error: toErrorShape(e) };
    }
    port.postMessage(res);
  });
});
