// The exact top-k by vector among a persona's memories whose imported vectors
// have not joined the HNSW graph yet (docs/import-at-scale.md). There can be
// tens of thousands of them right after a big import, so they are read a page
// at a time by `seq`, each page a short statement outside recall's
// transaction, and other calls are answered between pages.
import type { Queryable } from '../db/client';
import { Pacer } from '../portable/pace';
import { filterSql } from './memory-rows';
import { Params } from './params';
import type { Probe } from './probe';

export type StagedScope = Pick<Probe, 'persona' | 'model' | 'includeSuperseded' | 'filters'> & { vector: Uint8Array };

/** Rows a page starts at; the pacer sizes the next ones by the time each took. */
const pace = new Pacer({ targetMs: 30, min: 200, max: 20_000, start: 2_000 });

/**
 * The ids of the `k` staged rows in scope nearest the query vector, nearest first. An empty list when the
 * persona has none (one index lookup).
 */
export async function stagedTopK(q: Queryable, s: StagedScope, k: number, pacer = pace): Promise<string[]> {
  let best: { id: string; d: number }[] = [];
  let after = '0';
  for (;;) {
    const p = new Params();
    const scope = `m.persona = ${p.add(s.persona)} AND m.staged_model = ${p.add(s.model)} AND m.embedding_model IS NULL AND m.embedding IS NOT NULL
      ${s.includeSuperseded ? '' : 'AND m.superseded_by IS NULL'}${filterSql(s, p)}`;
    const size = pacer.size;
    const { rows } = await pacer.time(size, () =>
      q.query<{ last: string | null; n: number; top: [string, number][] | null }>(
        `WITH page AS MATERIALIZED (
           SELECT m.seq, m.id, (m.embedding <=> ${p.add(s.vector)}::vector)::float8 AS d FROM memories m
           WHERE ${scope} AND m.seq > ${p.add(after)}::bigint ORDER BY m.seq LIMIT ${p.add(size)})
         SELECT (SELECT max(seq) FROM page)::text AS last, (SELECT count(*) FROM page)::int AS n,
                (SELECT json_agg(json_build_array(t.id, t.d)) FROM (SELECT id, d FROM page ORDER BY d LIMIT ${p.add(k)}) t) AS top`,
        p.values,
      ),
    );
    const r = rows[0];
    if (!r) break;
    best = [...best, ...(r.top ?? []).map(([id, d]) => ({ id, d }))].sort((a, b) => a.d - b.d).slice(0, k);
    if (r.last === null || r.n < size) break;
    after = r.last;
  }
  return best.map((b) => b.id);
}
