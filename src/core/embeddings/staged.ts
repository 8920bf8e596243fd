// Vectors an import brought (docs/export.md) wait with embedding_model NULL
// and their tag in staged_model, outside both HNSW graphs. An embeddings job
// for such a row needs no model: it sets the tag, which inserts the vector
// into its graph. That insert costs milliseconds a row, so it runs a few rows
// per statement, outside any transaction, and other calls go in between.
import type { Queryable } from '../db/client';
import { Pacer } from '../db/pace';
import type { EmbeddingTarget } from './enqueue';
import type { TargetRow } from './store';

const TABLE: Record<EmbeddingTarget, string> = { memory: 'memories', knowledge: 'knowledge_chunks' };

/**
 * One pacer a table for every job: an import queues a job per 64 rows, and a pacer made afresh for each
 * started again at 4 rows a statement and spent most of the job growing back, one short statement
 * after another (docs/import-at-scale.md). At most 16 rows: a row's graph insert costs a few
 * milliseconds but varies several-fold, and statements learned on cheap rows grew to 50 rows and held
 * the database for a few hundred milliseconds on dear ones.
 */
const pacers: Record<EmbeddingTarget, Pacer> = {
  memory: new Pacer({ targetMs: 30, min: 1, max: 16, start: 4 }),
  knowledge: new Pacer({ targetMs: 30, min: 1, max: 16, start: 4 }),
};

/**
 * Gives the staged vectors of these rows that `model` made their tag.
 * Returns the rows placed and the rest (to embed the usual way).
 */
export async function placeStagedVectors(
  q: Queryable,
  target: EmbeddingTarget,
  rows: TargetRow[],
  model: string,
  signal?: AbortSignal,
): Promise<{ placed: TargetRow[]; rest: TargetRow[] }> {
  const { rows: staged } = await q.query<{ id: string }>(
    `SELECT id FROM ${TABLE[target]} WHERE id = ANY($1::uuid[]) AND staged_model = $2 AND embedding IS NOT NULL AND embedding_model IS NULL`,
    [rows.map((r) => r.id), model],
  );
  const ids = new Set(staged.map((r) => r.id));
  const todo = rows.filter((r) => ids.has(r.id));
  const placed: TargetRow[] = [];
  const pace = pacers[target];
  for (let i = 0; i < todo.length; ) {
    signal?.throwIfAborted();
    const batch = todo.slice(i, i + pace.size);
    i += batch.length;
    const { rows: done } = await pace.time(batch.length, () =>
      q.query<{ id: string }>(
        `UPDATE ${TABLE[target]} SET embedding_model = staged_model, staged_model = NULL, embedding_error = NULL
         WHERE id = ANY($1::uuid[]) AND staged_model = $2 AND embedding IS NOT NULL AND embedding_model IS NULL
         RETURNING id`,
        [batch.map((r) => r.id), model],
      ),
    );
    const got = new Set(done.map((r) => r.id));
    placed.push(...batch.filter((r) => got.has(r.id)));
  }
  const placedIds = new Set(placed.map((r) => r.id));
  return { placed, rest: rows.filter((r) => !placedIds.has(r.id)) };
}
