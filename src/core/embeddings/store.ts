import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import type { EmbeddingTarget } from './enqueue';

// The SQL of embedding work: the table names come from this fixed map, never from input.
const TABLE: Record<EmbeddingTarget, string> = { memory: 'memories', knowledge: 'knowledge_chunks' };
const ORDER: Record<EmbeddingTarget, string> = { memory: 't.inserted_at, t.id', knowledge: 't.source, t.chunk_index' };
/** What is embedded: a memory's content; a chunk's search key (its text with title and heading, docs/ranking.md). */
const TEXT: Record<EmbeddingTarget, string> = { memory: 'content', knowledge: 'search_key' };

export interface TargetRow {
  id: string;
  persona: string;
  content: string;
  /** Knowledge chunks only. */
  source: string | null;
}

/** The rows still there (deleted ones simply drop out). */
export async function loadTargets(q: Queryable, target: EmbeddingTarget, ids: string[]): Promise<TargetRow[]> {
  const source = target === 'knowledge' ? 't.source' : 'NULL::text';
  const { rows } = await q.query<TargetRow>(
    `SELECT t.id, t.persona, t.${TEXT[target]} AS content, ${source} AS source FROM ${TABLE[target]} t
     WHERE t.id = ANY($1::uuid[]) ORDER BY ${ORDER[target]}`,
    [ids],
  );
  return rows;
}

/**
 * Stores one vector per row, tagged with its model, but only where the content
 * is still what was embedded: a row edited meanwhile keeps no stale vector
 * (its edit enqueued a job of its own). Returns the rows written.
 */
export async function writeVectors(
  tx: Queryable,
  target: EmbeddingTarget,
  rows: TargetRow[],
  vectors: Float32Array[],
  model: string,
): Promise<TargetRow[]> {
  const written: TargetRow[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const res = await tx.query(
      `UPDATE ${TABLE[target]} SET embedding = $2, embedding_model = $3, embedding_error = NULL, staged_model = NULL
       WHERE id = $1 AND ${TEXT[target]} = $4`,
      [row.id, encodeVector(vectors[i]!), model, row.content],
    );
    if (res.affectedRows > 0) written.push(row);
  }
  return written;
}

/** Marks rows whose embedding finally failed (the UI shows them as failed); current vectors stay. */
export async function markFailed(
  q: Queryable,
  target: EmbeddingTarget,
  ids: string[],
  error: string,
  model: string,
): Promise<TargetRow[]> {
  const source = target === 'knowledge' ? 't.source' : 'NULL::text';
  const { rows } = await q.query<TargetRow>(
    `UPDATE ${TABLE[target]} t SET embedding_error = $2
     WHERE t.id = ANY($1::uuid[]) AND (t.embedding IS NULL OR t.embedding_model IS DISTINCT FROM $3)
     RETURNING t.id, t.persona, t.${TEXT[target]} AS content, ${source} AS source`,
    [ids, error.slice(0, 2000), model],
  );
  return rows;
}

/** Rows lacking a current-model vector that no waiting or running job covers. */
export async function missingRows(
  q: Queryable,
  target: EmbeddingTarget,
  model: string,
  persona: string | null,
): Promise<{ id: string; persona: string }[]> {
  const { rows } = await q.query<{ id: string; persona: string }>(
    `WITH queued AS (
       SELECT DISTINCT jsonb_array_elements_text(args->'ids') AS id FROM jobs
       WHERE queue = 'embeddings' AND state IN ('available', 'running', 'retryable') AND args->>'target' = $1
     )
     SELECT t.id, t.persona FROM ${TABLE[target]} t
     WHERE NOT (t.embedding IS NOT NULL AND t.embedding_model = $2)
       AND ($3::text IS NULL OR t.persona = $3)
       AND NOT EXISTS (SELECT 1 FROM queued WHERE queued.id = t.id::text)
     ORDER BY t.persona, ${ORDER[target]}`,
    [target, model, persona],
  );
  return rows;
}
