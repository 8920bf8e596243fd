// Bulk import (benchmarks, imports from other tools): multi-row VALUES with
// vectors in pgvector's binary format.
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import { enqueueEmbeddings } from '../embeddings/enqueue';
import { recordImportedVersions } from '../history/memory-versions';
import { requirePersona } from '../personas/store';

export interface ImportRow {
  content: string;
  category?: string | null;
  importance?: number;
  day: string;
  insertedAt?: Date;
  embedding?: ArrayLike<number> | null;
  /** The model that made `embedding`; defaults to the current one. */
  embeddingModel?: string | null;
}

export interface ImportResult {
  inserted: number;
  ids: string[];
  withVectors: number;
  /** Whether the HNSW index was dropped for the load and rebuilt after. */
  rebuiltIndex: boolean;
  /** Whether the bm25 and GIN text indexes were dropped for the load and rebuilt after. */
  rebuiltTextIndexes: boolean;
  /** index: the HNSW build; textIndexes: the bm25 and GIN builds. */
  ms: { insert: number; index: number; textIndexes: number };
}

const ROWS_PER_STATEMENT = 200;
/**
 * Loading into a table that has its HNSW index runs ~57 rows/s; without it
 * ~3,000 rows/s, and building after costs ~30 s at 10k (docs/memory-model.md). Below
 * this many vectors, inserting with the index in place is cheaper.
 */
const REBUILD_HNSW_FROM = 2_000;
/** Both HNSW graphs: the built-in model's 512-d one and every other model's (migrations/0004). */
export const HNSW_INDEXES = ['memories_embedding_idx', 'memories_embedding_local_idx'];
/**
 * Maintaining the bm25 index row by row costs ~160 µs a row (10k rows: ~1.6 s
 * of a ~5.4 s load) and GIN ~40 µs; building them afterwards ~20 µs and ~3 µs
 * a row of the whole table (bench/recall.ts). Worth it when the load is big and
 * not much smaller than the table.
 */
const REBUILD_TEXT_FROM = 2_000;
export const TEXT_INDEXES = ['memories_bm25_idx', 'memories_search_idx'];

/**
 * Drops these indexes and returns their definitions, read from the catalog so
 * a rebuild is exactly what the migrations made. Missing ones are skipped.
 */
export async function dropIndexes(q: Queryable, names: string[], table = 'memories'): Promise<string[]> {
  const { rows } = await q.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $2 AND indexname = ANY($1::text[])`,
    [names, table],
  );
  for (const r of rows) await q.exec(`DROP INDEX ${r.indexname}`);
  return rows.map((r) => r.indexdef);
}

async function countMemories(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM memories');
  return rows[0]?.n ?? 0;
}

/**
 * pgvector builds HNSW fast only while the whole graph fits in
 * maintenance_work_mem (default 64 MB); past that it crawls on disk: 62.5k
 * 1536-d rows took 25 min at 64 MB against ~2 min in memory. About 7 kB a
 * row: the padded vector plus its neighbour lists. Capped so the WASM heap
 * (which never shrinks until the worker restarts) stays within reason.
 */
const HNSW_BYTES_PER_ROW = 7 * 1024;
const HNSW_BUILD_MEMORY_CAP_MB = 1024;
export const DEFAULT_MAINTENANCE_MB = 64;

export async function hnswBuildMemoryMb(q: Queryable, table = 'memories'): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE embedding IS NOT NULL`);
  const need = Math.ceil(((rows[0]?.n ?? 0) * HNSW_BYTES_PER_ROW * 1.1) / 1024 / 1024);
  return Math.min(HNSW_BUILD_MEMORY_CAP_MB, Math.max(DEFAULT_MAINTENANCE_MB, need));
}

export async function rebuild(q: Queryable, defs: string[]): Promise<number> {
  const t = performance.now();
  for (const d of defs) await q.exec(d);
  return performance.now() - t;
}

async function insertBatch(q: Queryable, persona: string, rows: ImportRow[], model: string): Promise<string[]> {
  const params: unknown[] = [];
  const values: string[] = [];
  for (const r of rows) {
    const b = params.length;
    const vec = r.embedding ? encodeVector(r.embedding) : null;
    params.push(
      r.content,
      r.category ?? null,
      r.importance ?? 5,
      r.day,
      r.insertedAt ?? null,
      vec,
      vec ? (r.embeddingModel ?? model) : null,
      persona,
    );
    const p = (i: number) => `$${b + i}`;
    values.push(`(${p(8)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}::date, coalesce(${p(5)}::timestamptz, now()), ${p(6)}, ${p(7)}, 'import')`);
  }
  const { rows: out } = await q.query<{ id: string }>(
    `INSERT INTO memories (persona, content, category, importance, day, inserted_at, embedding, embedding_model, origin)
     VALUES ${values.join(', ')} RETURNING id`,
    params,
  );
  return out.map((r) => r.id);
}

export interface ImportBatch {
  persona: string;
  rows: ImportRow[];
}

/**
 * Imports rows into one persona in a single transaction: all or nothing.
 * Rows without a vector get embedding jobs (batched) in the same transaction.
 * With many vectors, the HNSW index is dropped and rebuilt inside that
 * transaction, and with many rows the bm25 and GIN indexes too (DDL is
 * transactional, so a failure restores them).
 */
export async function importMemories(ctx: CoreContext, persona: string, rows: ImportRow[]): Promise<ImportResult> {
  return importBatches(ctx, [{ persona, rows }]);
}

/**
 * Several personas' rows in one transaction, with one HNSW drop and rebuild
 * for the whole load (a rebuild per persona would index the table again each time).
 * `ids` follow the batches' order.
 */
export async function importBatches(ctx: CoreContext, batches: ImportBatch[]): Promise<ImportResult> {
  const model = ctx.embedder.model();
  const withVectors = batches.reduce((s, b) => s + b.rows.filter((r) => r.embedding).length, 0);
  const rowCount = batches.reduce((s, b) => s + b.rows.length, 0);
  const ms = { insert: 0, index: 0, textIndexes: 0 };
  let rebuiltIndex = false;
  let rebuiltTextIndexes = false;
  let buildMb = DEFAULT_MAINTENANCE_MB;
  const perPersona = await ctx.db.transaction(async (tx) => {
    for (const b of batches) await requirePersona(tx, b.persona);
    const hnsw = withVectors >= REBUILD_HNSW_FROM ? await dropIndexes(tx, HNSW_INDEXES) : [];
    const text = rowCount >= REBUILD_TEXT_FROM && 8 * rowCount >= (await countMemories(tx)) ? await dropIndexes(tx, TEXT_INDEXES) : [];
    const t0 = performance.now();
    const out: { persona: string; ids: string[] }[] = [];
    for (const { persona, rows } of batches) {
      const ids: string[] = [];
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        ids.push(...(await insertBatch(tx, persona, rows.slice(i, i + ROWS_PER_STATEMENT), model)));
      }
      await recordImportedVersions(tx, ids, 'import', ctx.now());
      const missing = ids.filter((_, i) => !rows[i]!.embedding);
      await enqueueEmbeddings(tx, persona, 'memory', missing);
      out.push({ persona, ids });
    }
    ms.insert = performance.now() - t0;
    ms.textIndexes = await rebuild(tx, text);
    if (hnsw.length) {
      buildMb = await hnswBuildMemoryMb(tx);
      await tx.exec(`SET LOCAL maintenance_work_mem = '${buildMb}MB'`);
    }
    ms.index = await rebuild(tx, hnsw);
    rebuiltIndex = hnsw.length > 0;
    rebuiltTextIndexes = text.length > 0;
    return out;
  });
  // The build grew the database's WASM heap to about buildMb; only a fresh worker gives it back.
  if (buildMb > DEFAULT_MAINTENANCE_MB) await ctx.db.local?.restart();
  for (const { persona, ids } of perPersona) {
    if (ids.length) ctx.events.emit('memories.changed', { persona, ids: ids.slice(0, 1000), reason: 'write' });
  }
  const ids = perPersona.flatMap((p) => p.ids);
  return { inserted: ids.length, ids, withVectors, rebuiltIndex, rebuiltTextIndexes, ms };
}
