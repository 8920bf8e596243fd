// How many memories match a search at all: the "of N" in "best 10 of N".
// A memory matches when it contains a word of the query (its text score is
// above 0) or is close in meaning (cosine ≥ MEANINGFUL_COSINE), and passes the
// filters. Words are counted exactly through the GIN index; meaning only among
// the nearest MEANING_CAP rows by vector, since counting every close row would
// compute the distance of every row (docs/ranking.md, "Filters and the count").
import { MEANINGFUL_COSINE } from '../../shared/recall-match';
import type { Queryable } from '../db/client';
import { filterSql } from './memory-rows';
import { Params } from './params';
import type { Probe } from './probe';
import { distanceSql, vectorOrderSql } from './vector-order';

/** How many of the nearest rows by vector are looked at for matches by meaning. */
export const MEANING_CAP = 200;

export interface MatchCount {
  total: number;
  /** The meaning side reached MEANING_CAP: there may be more. */
  lowerBound: boolean;
}

function scope(probe: Probe, p: Params): string {
  return `m.persona = ${p.add(probe.persona)}${probe.includeSuperseded ? '' : ' AND m.superseded_by IS NULL'}${filterSql(probe, p)}`;
}

/**
 * Runs inside recall's read transaction, after its candidate queries: the
 * vector side relies on recall's planner settings (HNSW forced); the word side
 * turns bitmap scans back on, the only way Postgres reads a GIN index.
 */
export async function countMatches(q: Queryable, probe: Probe): Promise<MatchCount> {
  let byMeaningOnly = 0;
  let lowerBound = false;
  if (probe.vector) {
    const p = new Params();
    const where = scope(probe, p);
    const { where: vWhere, order } = vectorOrderSql({ ...probe, vector: probe.vector }, 'm', p);
    const words = probe.tq.lexemes.length ? `m.search_vector @@ ${p.add(probe.tq.orQuery)}::tsquery` : 'false';
    const limit = p.add(1 - MEANINGFUL_COSINE);
    const { rows } = await q.query<{ near: number; close: number; furthest: number | null }>(
      `SELECT count(*)::int AS near, (count(*) FILTER (WHERE NOT v.words AND v.distance <= ${limit}))::int AS close,
         max(v.distance) FILTER (WHERE v.distance <= 2) AS furthest
       FROM (SELECT ${words} AS words, ${distanceSql(probe, 'm', p)} AS distance FROM memories m
             WHERE ${where} AND ${vWhere} ORDER BY ${order} LIMIT ${p.add(MEANING_CAP)}) v`,
      p.values,
    );
    const r = rows[0];
    byMeaningOnly = r?.close ?? 0;
    // Even the furthest of the nearest rows is close: rows beyond them may be close too.
    lowerBound = !!r && r.near >= MEANING_CAP && r.furthest !== null && r.furthest <= 1 - MEANINGFUL_COSINE;
  }
  let byWords = 0;
  if (probe.tq.lexemes.length) {
    const p = new Params();
    const where = scope(probe, p);
    await q.exec('SET LOCAL enable_bitmapscan = on');
    const { rows } = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories m WHERE ${where} AND m.search_vector @@ ${p.add(probe.tq.orQuery)}::tsquery`,
      p.values,
    );
    byWords = rows[0]?.n ?? 0;
  }
  return { total: byWords + byMeaningOnly, lowerBound };
}
