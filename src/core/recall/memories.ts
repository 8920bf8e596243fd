// Recall over memories: candidates from three indexes, then exact scoring.
import type { RecallHit } from '../../shared/api';
import type { Queryable } from '../db/client';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from '../memories/row';
import { Params } from './params';
import { type CandidateSizes, FORCE_INDEX_ORDER, hnswSettings, type Probe, RESET_HNSW_SETTINGS, RESET_INDEX_ORDER } from './probe';
import { cosineOrNull, memoryScore, textNormaliser } from './score';
import { textOrderSql, textScoreSql } from './text-query';
import { NEIGHBOUR_SHARE, usesNeighbours } from './variants';

interface ScoredRow extends MemoryRow {
  text_raw: number;
  /** The best raw text score of the row's same-day neighbours (context variant), else 0. */
  neighbour_raw: number;
  distance: number | null;
  days: number;
}

/**
 * A row's neighbours: the memories written just before and after it on the
 * same day, from the same stream — same origin and same conversation (a chat,
 * an imported log). Memories written by hand stand alone.
 */
const SAME_STREAM = `x.persona = m.persona AND x.day = m.day AND x.origin = m.origin
  AND x.conversation_id IS NOT DISTINCT FROM m.conversation_id AND m.origin <> 'manual'`;
const NEIGHBOURS_SQL = `
  LEFT JOIN LATERAL (SELECT x.content, x.search_vector FROM memories x
    WHERE ${SAME_STREAM} AND x.seq < m.seq ORDER BY x.seq DESC LIMIT 1) pv ON true
  LEFT JOIN LATERAL (SELECT x.content, x.search_vector FROM memories x
    WHERE ${SAME_STREAM} AND x.seq > m.seq ORDER BY x.seq LIMIT 1) nx ON true`;

/**
 * Scores the persona's memories that `restrict` selects, with the same SQL
 * whether they are a candidate set or every row (the exact scan).
 */
export async function scoreMemoryRows(q: Queryable, probe: Probe, restrict: (p: Params) => string): Promise<ScoredRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const text = textScoreSql(probe.tq, 'memories', 'm', p);
  const context = usesNeighbours(probe.tq.variant) && probe.tq.lexemes.length > 0;
  const neighbour = context
    ? `greatest(coalesce(${textScoreSql(probe.tq, 'memories', 'pv', p)}, 0), coalesce(${textScoreSql(probe.tq, 'memories', 'nx', p)}, 0))`
    : '0::float8';
  const distance = probe.vector
    ? `CASE WHEN m.embedding IS NOT NULL AND m.embedding_model = ${p.add(probe.model)} THEN (m.embedding <=> ${p.add(probe.vector)}::vector)::float8 END`
    : 'NULL::float8';
  const now = p.add(probe.now);
  const where = restrict(p);
  const { rows } = await q.query<ScoredRow>(
    `SELECT ${MEMORY_COLUMNS}, ${text} AS text_raw, ${neighbour} AS neighbour_raw, ${distance} AS distance,
            extract(epoch FROM (${now}::timestamptz - m.inserted_at))::float8 / 86400 AS days
     FROM memories m ${context ? NEIGHBOURS_SQL : ''}
     WHERE m.persona = ${persona} AND ${where}`,
    p.values,
  );
  return rows;
}

/** Top-k by text, by vector (HNSW) and the most recent of each importance: their union. */
export async function memoryCandidates(tx: Queryable, probe: Probe, k: CandidateSizes): Promise<string[]> {
  const ids = new Set<string>();
  if (probe.tq.lexemes.length) {
    const p = new Params();
    const persona = p.add(probe.persona);
    const { where, order } = textOrderSql(probe.tq, 'memories', 'm', p);
    const bm25 = probe.tq.scorer === 'bm25';
    if (bm25) await tx.exec(FORCE_INDEX_ORDER);
    const { rows } = await tx.query<{ id: string }>(
      `SELECT m.id FROM memories m WHERE m.persona = ${persona} AND ${where} ORDER BY ${order} LIMIT ${p.add(k.text)}`,
      p.values,
    );
    if (bm25) await tx.exec(RESET_INDEX_ORDER);
    for (const r of rows) ids.add(r.id);
    // A row can rank on its neighbour's match alone: the text hits' neighbours are candidates too.
    if (usesNeighbours(probe.tq.variant) && rows.length) {
      const { rows: near } = await tx.query<{ id: string }>(
        `SELECT n.id FROM memories m CROSS JOIN LATERAL (
           (SELECT x.id FROM memories x WHERE ${SAME_STREAM} AND x.seq < m.seq ORDER BY x.seq DESC LIMIT 1)
           UNION ALL
           (SELECT x.id FROM memories x WHERE ${SAME_STREAM} AND x.seq > m.seq ORDER BY x.seq LIMIT 1)) n
         WHERE m.id = ANY($1::uuid[])`,
        [rows.map((r) => r.id)],
      );
      for (const r of near) ids.add(r.id);
    }
  }
  // importance/10 and 1/(1 + days) can outweigh weak text and vector matches (STACK-FACTS: without
  // this source only 3% of top-10s agreed with the full scan). Walks the (persona, importance, inserted_at) btree.
  const { rows: recent } = await tx.query<{ id: string }>(
    `SELECT x.id FROM generate_series(1, 10) AS g(imp)
     CROSS JOIN LATERAL (
       SELECT m.id FROM memories m WHERE m.persona = $1 AND m.importance = g.imp
       ORDER BY m.inserted_at DESC LIMIT $2) x`,
    [probe.persona, k.recentPerImportance],
  );
  for (const r of recent) ids.add(r.id);
  if (probe.vector) {
    await tx.exec(hnswSettings(k.vector));
    const { rows } = await tx.query<{ id: string }>(
      `SELECT m.id FROM memories m
       WHERE m.persona = $1 AND m.embedding_model = $2
       ORDER BY m.embedding <=> $3::vector LIMIT $4`,
      [probe.persona, probe.model, probe.vector, k.vector],
    );
    await tx.exec(RESET_HNSW_SETTINGS);
    for (const r of rows) ids.add(r.id);
  }
  return [...ids];
}

export function memoryTag(m: { id: string; category: string | null; importance: number; day: string }): string {
  return `[memory ${m.id} · ${m.category ?? 'general'} · imp=${m.importance} · ${m.day}]`;
}

/** Normalises text among these rows (the query's candidates) and applies the formula. */
export function memoryHits(rows: ScoredRow[], model: string): RecallHit[] {
  const raw = (r: ScoredRow) => r.text_raw + NEIGHBOUR_SHARE * r.neighbour_raw;
  const norm = textNormaliser(rows.map(raw));
  return rows.map((r) => {
    const memory = toMemory(r, model);
    const score = memoryScore(norm(raw(r)), cosineOrNull(r.distance), r.importance, r.days);
    if (r.neighbour_raw > 0) score.textFromNeighbours = norm(raw(r)) - norm(r.text_raw);
    return { kind: 'memory' as const, id: r.id, tag: memoryTag(memory), content: r.content, score, memory };
  });
}
