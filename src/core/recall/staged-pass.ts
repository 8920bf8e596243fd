// The exact top-k by vector among a persona's memories whose imported vectors
// have not joined the HNSW graph yet (docs/import-at-scale.md): one statement,
// outside recall's transaction, through the partial index on staged rows.
// Reading them in pages by seq cost far more: each page's scan still visited
// every remaining staged row.
import type { Queryable } from '../db/client';
import { filterSql } from './memory-rows';
import { Params } from './params';
import type { Probe } from './probe';

export type StagedScope = Pick<Probe, 'persona' | 'model' | 'includeSuperseded' | 'filters'> & { vector: Uint8Array };

/**
 * The ids of the `k` staged rows in scope nearest the query vector, nearest first. An empty list when the
 * persona has none (one index lookup).
 */
export async function stagedTopK(q: Queryable, s: StagedScope, k: number): Promise<string[]> {
  const p = new Params();
  const { rows } = await q.query<{ id: string }>(
    `SELECT m.id FROM memories m
     WHERE m.persona = ${p.add(s.persona)} AND m.staged_model = ${p.add(s.model)} AND m.embedding_model IS NULL AND m.embedding IS NOT NULL
       ${s.includeSuperseded ? '' : 'AND m.superseded_by IS NULL'}${filterSql(s, p)}
     ORDER BY m.embedding <=> ${p.add(s.vector)}::vector LIMIT ${p.add(k)}`,
    p.values,
  );
  return rows.map((r) => r.id);
}
