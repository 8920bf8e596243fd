// Bulk import (benchmarks, imports from other tools): multi-row VALUES with
// vectors in pgvector's binary format.
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import { enqueueEmbeddings } from '../embeddings/enqueue';
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
  ms: { insert: number; index: number };
}

const ROWS_PER_STATEMENT = 200;
/**
 * Loading into a table that has its HNSW index runs ~57 rows/s; without it
 * ~3,000 rows/s, and building after costs ~30 s at 10k (STACK-FACTS). Below
 * this many vectors, inserting with the index in place is cheaper.
 */
const REBUILD_HNSW_FROM = 2_000;
const HNSW_DDL = 'CREATE INDEX memories_embedding_idx ON memories USING hnsw (embedding vector_cosine_ops)';

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

/**
 * Imports rows into one persona in a single transaction: all or nothing.
 * Rows without a vector get embedding jobs (batched) in the same transaction.
 * With many vectors, the HNSW index is dropped and rebuilt inside that
 * transaction (DDL is transactional, so a failure restores it).
 */
export async function importMemories(ctx: CoreContext, persona: string, rows: ImportRow[]): Promise<ImportResult> {
  const model = ctx.embeddingModel();
  const withVectors = rows.filter((r) => r.embedding).length;
  const rebuild = withVectors >= REBUILD_HNSW_FROM;
  const ms = { insert: 0, index: 0 };
  const ids = await ctx.db.transaction(async (tx) => {
    await requirePersona(tx, persona);
    if (rebuild) await tx.exec('DROP INDEX IF EXISTS memories_embedding_idx');
    const t0 = performance.now();
    const all: string[] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      all.push(...(await insertBatch(tx, persona, rows.slice(i, i + ROWS_PER_STATEMENT), model)));
    }
    ms.insert = performance.now() - t0;
    const missing = all.filter((_, i) => !rows[i]!.embedding);
    await enqueueEmbeddings(tx, persona, 'memory', missing);
    if (rebuild) {
      const t1 = performance.now();
      await tx.exec(HNSW_DDL);
      ms.index = performance.now() - t1;
    }
    return all;
  });
  if (ids.length) ctx.events.emit('memories.changed', { persona, ids: ids.slice(0, 1000), reason: 'write' });
  return { inserted: ids.length, ids, withVectors, rebuiltIndex: rebuild, ms };
}
