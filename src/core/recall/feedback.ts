// Moving a query vector. Pseudo-relevance feedback (Rocchio): the best memories
// the first pass found by the question's own words or meaning say what the
// person's memory calls the thing asked about; the query vector moves toward
// them and recall runs once more. Off unless the tuning turns it on
// (docs/ranking.md, "Feedback"). And the mean that merges a question with the
// model's rewrites (docs/ranking.md, "Model help").
import type { Queryable } from '../db/client';
import { decodeVector } from '../db/vector';

/** The current-model vectors of these memories (rows without one are left out). */
export async function memoryVectors(q: Queryable, ids: string[], model: string): Promise<Float32Array[]> {
  if (!ids.length) return [];
  const { rows } = await q.query<{ v: Uint8Array }>(
    `SELECT vector_send(m.embedding) AS v FROM memories m WHERE m.id = ANY($1::uuid[]) AND m.embedding IS NOT NULL AND m.embedding_model = $2`,
    [ids, model],
  );
  return rows.map((r) => decodeVector(r.v));
}

function unit(v: ArrayLike<number>, n: number): Float32Array {
  const out = new Float32Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) s += (v[i] ?? 0) ** 2;
  const k = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < n; i++) out[i] = (v[i] ?? 0) * k;
  return out;
}

/** Mean of the unit vectors, normalised: each counts the same, whatever its length (HyDE's merge, recall.ts). */
export function unitMean(vs: ArrayLike<number>[]): Float32Array {
  const n = vs[0]!.length;
  const out = new Float32Array(n);
  for (const v of vs) {
    const u = unit(v, n);
    for (let i = 0; i < n; i++) out[i]! += u[i]!;
  }
  return unit(out, n);
}

/** Rocchio: unit(query) + weight · mean of unit(hits), normalised. The query stays the larger part for weight < 1. */
export function movedToward(query: ArrayLike<number>, hits: ArrayLike<number>[], weight: number): Float32Array {
  const n = query.length;
  const out = unit(query, n);
  if (!hits.length) return out;
  for (const h of hits) {
    const u = unit(h, n);
    for (let i = 0; i < n; i++) out[i]! += (weight * u[i]!) / hits.length;
  }
  return unit(out, n);
}
