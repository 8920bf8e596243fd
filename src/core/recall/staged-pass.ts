// The exact top-k by vector among a persona's memories whose imported vectors
// have not joined the HNSW graph yet (docs/import-at-scale.md), outside
// recall's transaction. The staged rows are read in pages in `seq` order
// through the partial index on (persona, seq) of staged rows (migration 0026):
// each page walks only its own rows, and other calls go in between pages.
// Each page keeps its own top k; the pages' lists merge into the exact top k.
import type { Queryable } from '../db/client';
import type { DbQueryResult } from '../db/protocol';
import { Pacer } from '../db/pace';
import { filterSql } from './memory-rows';
import { Params } from './params';
import type { Probe } from './probe';
import { stagedDistanceSql } from './vector-order';

export type StagedScope = Pick<Probe, 'persona' | 'model' | 'includeSuperseded' | 'filters'> & { vector: Uint8Array };

/**
 * Rows a page reads, sized by time: a staged row is a whole heap page (its 6 kB vector is stored inline,
 * migrations/0003), so a page of a thousand rows takes tens of milliseconds. One pacer for every recall,
 * so the size learned carries over from one recall to the next. Aimed at 40 ms like export and import pages,
 * and at most 2,048 rows: a row read from the buffer cache costs a fraction of one read from the files, so
 * pages learned on cached rows grew to thousands and then held the database for up to a second when their
 * rows were not cached (docs/import-at-scale.md).
 */
const pacer = new Pacer({ targetMs: 40, min: 256, max: 2_048, start: 1_024 });

interface PageRow {
  id: string;
  distance: number | null;
  last: string;
  n: number;
}

/**
 * The ids of the `k` staged rows in scope nearest the query vector, nearest first (ties by id). An empty
 * list when the persona has none (one index lookup). `pageRows` fixes the page size instead of the pacer's.
 */
export async function stagedTopK(q: Queryable, s: StagedScope, k: number, pageRows?: number): Promise<string[]> {
  if (k <= 0) return [];
  let best: { id: string; distance: number }[] = [];
  let after: string | null = null;
  for (;;) {
    const size = pageRows ?? pacer.size;
    const p = new Params();
    // Pages follow every staged row, in scope or not, so a page's end is known even when none of it counts:
    // a row out of scope gets no distance.
    const inScope = `m.staged_model = ${p.add(s.model)} AND m.embedding_model IS NULL AND m.embedding IS NOT NULL${s.includeSuperseded ? '' : ' AND m.superseded_by IS NULL'}${filterSql(s, p)}`;
    const t = performance.now();
    const res: DbQueryResult<PageRow> = await q.query<PageRow>(
      `SELECT s.id, s.distance, max(s.seq) OVER ()::text AS last, count(*) OVER ()::int AS n FROM (
         SELECT m.id, m.seq, CASE WHEN ${inScope} THEN ${stagedDistanceSql(s, 'm', p)} END AS distance FROM memories m
         WHERE m.persona = ${p.add(s.persona)} AND m.staged_model IS NOT NULL${after === null ? '' : ` AND m.seq > ${p.add(after)}::bigint`}
         ORDER BY m.seq LIMIT ${p.add(size)}) s
       ORDER BY s.distance NULLS LAST, s.id LIMIT ${p.add(k)}`,
      p.values,
    );
    const rows: PageRow[] = res.rows;
    // The time it ran in the database, not the time it waited behind other calls (pace.ts).
    if (pageRows === undefined && rows.length) pacer.record(rows[0]!.n, res.ms ?? performance.now() - t);
    best = merge(best, rows, k);
    if (!rows.length || rows[0]!.n < size) break;
    after = rows[0]!.last;
  }
  return best.map((b) => b.id);
}

/** The nearest `k` of both lists, nearest first, ties by id (as one ordered scan would give them). */
function merge(a: { id: string; distance: number }[], page: PageRow[], k: number): { id: string; distance: number }[] {
  // A zero vector's distance is NaN: it sorts after every other, as Postgres sorts it.
  const add = page.filter((r) => r.distance !== null).map((r) => ({ id: r.id, distance: Number.isNaN(Number(r.distance)) ? Infinity : Number(r.distance) }));
  return [...a, ...add].sort((x, y) => x.distance - y.distance || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).slice(0, k);
}
