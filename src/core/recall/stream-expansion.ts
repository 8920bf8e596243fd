// Stream expansion: the memories written just before and after recall's best
// hits, in the same stream (same day, origin and conversation), join the
// ranking at a share of that hit's score. In a conversation the answer often
// sits one turn from the turn that matched the question ("Where did you
// camp?" — "By the lake."), sharing neither its words nor its meaning. Off
// unless the tuning turns it on (docs/ranking.md, "Stream expansion").
import type { Queryable } from '../db/client';
import type { RankedMemory } from './diversity';
import { filterSql } from './memory-rows';
import { Params } from './params';
import type { Probe } from './probe';
import { byScore } from './score';

/** The stream neighbours of `ids` (the rows they are neighbours of in `of`), within recall's scope. */
async function streamNeighbours(q: Queryable, probe: Probe, ids: string[]): Promise<{ id: string; of: string; day: string }[]> {
  const p = new Params();
  const scope = (a: string) => (probe.includeSuperseded ? '' : ` AND ${a}.superseded_by IS NULL`) + filterSql(probe, p, a);
  const next = (cmp: '<' | '>', order: 'ASC' | 'DESC') => `(SELECT x.id, to_char(x.day, 'YYYY-MM-DD') AS day FROM memories x
      WHERE x.persona = h.persona AND x.day = h.day AND x.origin = h.origin
        AND x.conversation_id IS NOT DISTINCT FROM h.conversation_id AND x.seq ${cmp} h.seq${scope('x')}
      ORDER BY x.seq ${order} LIMIT 1)`;
  const { rows } = await q.query<{ id: string; of: string; day: string }>(
    `SELECT n.id, h.id AS of, n.day FROM memories h
       CROSS JOIN LATERAL (${next('<', 'DESC')} UNION ALL ${next('>', 'ASC')}) n
     WHERE h.id = ANY(${p.add(ids)}::uuid[]) AND h.persona = ${p.add(probe.persona)} AND h.origin <> 'manual'`,
    p.values,
  );
  return rows;
}

/**
 * `ranked` (best first) with the stream neighbours of its best `seeds` rows:
 * a neighbour scores `share` × that row's score when that beats its own, and
 * is marked as found through that match (`streamNeighbour`).
 */
export async function withStreamNeighbours(q: Queryable, probe: Probe, ranked: RankedMemory[], seeds: number, share: number): Promise<RankedMemory[]> {
  const top = ranked.slice(0, seeds);
  if (!top.length || share <= 0) return ranked;
  const found = await streamNeighbours(q, probe, top.map((r) => r.id));
  const byId = new Map(ranked.map((r) => [r.id, r]));
  const parent = new Map(top.map((r) => [r.id, r]));
  for (const n of found) {
    const from = parent.get(n.of)!;
    const final = share * from.score.final;
    const had = byId.get(n.id);
    if (had && had.score.final >= final) continue;
    byId.set(n.id, {
      id: n.id,
      day: n.day,
      fromNeighbours: had?.fromNeighbours ?? 0,
      // Its own text and cosine stay what they were (zero when recall had not scored it): they say whether it matched the question itself.
      score: had ? { ...had.score, final, streamNeighbour: share } : { text: 0, cosine: null, importance: null, recency: from.score.recency, final, streamNeighbour: share },
    });
  }
  return [...byId.values()].sort(byScore);
}
