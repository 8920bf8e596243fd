// SQL of the sentence windows (migrations/0014): written with their chunks,
// embedded with them (the knowledge embedding job), deleted with them (cascade).
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';

export interface StoredWindow {
  start: number;
  end: number;
  page: number | null;
  key: string;
}

const ROWS_PER_STATEMENT = 200;

export async function insertWindows(q: Queryable, persona: string, rows: { chunkId: string; index: number; window: StoredWindow }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const params: unknown[] = [persona];
    const values = rows.slice(i, i + ROWS_PER_STATEMENT).map(({ chunkId, index, window: w }) => {
      params.push(chunkId, index, w.start, w.end, w.page, w.key.replaceAll('\u0000', ''));
      const b = params.length - 6;
      return `($${b + 1}::uuid, $${b + 2}::int, $1, $${b + 3}::int, $${b + 4}::int, $${b + 5}::int, $${b + 6})`;
    });
    await q.query(
      `INSERT INTO knowledge_windows (chunk_id, window_index, persona, start_at, end_at, page, search_key) VALUES ${values.join(', ')}`,
      params,
    );
  }
}

export interface WindowTarget {
  chunkId: string;
  index: number;
  key: string;
}

/** Every window of these chunks: a chunk's vector is the mean of all of them, so all are embedded together. */
export async function loadWindowTargets(q: Queryable, chunkIds: string[]): Promise<WindowTarget[]> {
  if (!chunkIds.length) return [];
  const { rows } = await q.query<{ chunk_id: string; window_index: number; search_key: string }>(
    `SELECT chunk_id, window_index, search_key FROM knowledge_windows
     WHERE chunk_id = ANY($1::uuid[])
     ORDER BY chunk_id, window_index`,
    [chunkIds],
  );
  return rows.map((r) => ({ chunkId: r.chunk_id, index: r.window_index, key: r.search_key }));
}

/**
 * Writes the windows' vectors, ROWS_PER_STATEMENT to a statement: a job's
 * write transaction, which a recall waits behind, holds the database for one
 * statement per page instead of one per window (docs/embeddings.md). A window
 * whose key changed meanwhile keeps no vector.
 */
export async function writeWindowVectors(tx: Queryable, targets: WindowTarget[], vectors: Float32Array[], model: string): Promise<void> {
  for (let i = 0; i < targets.length; i += ROWS_PER_STATEMENT) {
    const params: unknown[] = [model];
    const rows = targets.slice(i, i + ROWS_PER_STATEMENT).map((t, k) => {
      params.push(t.chunkId, t.index, t.key, encodeVector(vectors[i + k]!));
      const b = params.length - 4;
      return `($${b + 1}::uuid, $${b + 2}::int, $${b + 3}::text, $${b + 4}::vector)`;
    });
    await tx.query(
      `UPDATE knowledge_windows w SET embedding = v.e, embedding_model = $1
       FROM (VALUES ${rows.join(', ')}) AS v(chunk_id, window_index, search_key, e)
       WHERE w.chunk_id = v.chunk_id AND w.window_index = v.window_index AND w.search_key = v.search_key`,
      params,
    );
  }
}

/** Per chunk, the normalised mean of its windows' vectors (`owners[i]` owns `vectors[i]`). */
export function meanVectors(owners: string[], vectors: Float32Array[]): Map<string, Float32Array> {
  const sums = new Map<string, Float32Array>();
  owners.forEach((id, i) => {
    const v = vectors[i]!;
    const sum = sums.get(id) ?? new Float32Array(v.length);
    for (let d = 0; d < v.length; d++) sum[d]! += v[d]!;
    sums.set(id, sum);
  });
  for (const sum of sums.values()) {
    const norm = Math.hypot(...sum);
    if (norm > 0) for (let d = 0; d < sum.length; d++) sum[d]! /= norm;
  }
  return sums;
}
