// How the app opens PGlite: its extensions, parsers and the durable file
// layer. The database worker is its one production caller; the power-loss
// tests call it directly to run PGlite over a recording file layer.
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { pageinspect } from '@electric-sql/pglite/contrib/pageinspect';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { vector } from '@electric-sql/pglite-pgvector';
import { DurableNodeFS, durableStartParams, type FileIo } from './durable-fs';
import type { CompiledWasm } from './pglite-wasm';

const DATE_OID = 1082;

export interface OpenPgliteOptions {
  loadFrom?: Uint8Array;
  durableCommits?: boolean;
  /** The file layer's disk calls; default: the real ones. */
  io?: FileIo;
  /** PGlite's postgres WebAssembly already compiled (pglite-wasm.ts); default: PGlite compiles it. */
  wasmModule?: CompiledWasm;
}

export interface OpenedPglite {
  pg: PGlite;
  /** null for an in-memory database. */
  files: DurableNodeFS | null;
  vectorOid: number;
}

export async function openPglite(dataDir: string | null, options: OpenPgliteOptions = {}): Promise<OpenedPglite> {
  const files = dataDir
    ? new DurableNodeFS(dataDir, { durableCommits: options.durableCommits ?? false, ...(options.io ? { io: options.io } : {}) })
    : null;
  const pg = new PGlite({
    ...(files ? { fs: files, startParams: durableStartParams() } : {}),
    // amcheck and pageinspect: the integrity check (integrity.ts) reads every table and index with them.
    extensions: { vector, pg_textsearch, amcheck, pageinspect },
    // A calendar day stays a 'YYYY-MM-DD' string: a Date would shift with the time zone.
    parsers: { [DATE_OID]: (x: string) => x },
    // The dump arrives by postMessage, over a plain ArrayBuffer, never a shared one (the DOM's Blob type insists).
    ...(options.loadFrom ? { loadDataDir: new Blob([options.loadFrom as Uint8Array<ArrayBuffer>]) } : {}),
    ...(options.wasmModule ? { pgliteWasmModule: options.wasmModule } : {}),
  });
  await pg.waitReady;
  await pg.exec(
    'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_textsearch; ' +
      'CREATE EXTENSION IF NOT EXISTS amcheck; CREATE EXTENSION IF NOT EXISTS pageinspect;',
  );
  const res = await pg.query<{ oid: number }>(`SELECT oid FROM pg_type WHERE typname = 'vector'`);
  return { pg, files, vectorOid: res.rows[0]!.oid };
}
