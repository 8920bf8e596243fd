// Recall over memories: candidates from three indexes, then exact scoring.
import type { RecallHit } from '../../shared/api';
import type { Queryable } from '../db/client';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from '../memories/row';
import { Params } from './params';
import { type CandidateSizes, FORCE_INDEX_ORDER, hnswSettings, type Probe, RESET_HNSW_SETTINGS, RESET_INDEX_ORDER } from './probe';
import { cosineOrNull, memoryScore, textNormaliser } from './score';
import { textOrderSql, textScoreSql } from './text-query';

interface ScoredRow extends MemoryRow {
  text_raw: number;
  distance: number | null;
  days: number;
}

/**
 * Scores the persona's memories that `restrict` selects, with the same SQL
 * whether they are a candidate set or every row (the exact scan).
 */
export async function scoreMemoryRows(q: Queryable, probe: Probe, restrict: (p: Params) => string): Promise<ScoredRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const text = textScoreSql(probe.tq, 'memories', 'm', p);
  const distance = probe.vector
    ? `CASE WHEN m.embedding IS NOT NULL AND m.embedding_model = ${p.add(probe.model)} THEN (m.embedding <=> ${p.add(probe.vector)}::vector)::float8 END`
    : 'NULL::float8';
  const now = p.add(probe.now);
  const where = restrict(p);
  const { rows } = await q.query<ScoredRow>(
    `SELECT ${MEMORY_COLUMNS}, ${text} AS text_raw, ${distance} AS distance,
            extract(epoch FROM (${now}::timestamptz - m.inserted_at))::float8 / 86400 AS days
     FROM memories m
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
    const bm25 = probe.tq.variant === 'bm25';
    if (bm25) await tx.exec(FORCE_INDEX_ORDER);
    const { rows } = await tx.query<{ id: string }>(
      `SELECT m.id FROM memories m WHERE m.persona = ${persona} AND ${where} ORDER BY ${order} LIMIT ${p.add(k.text)}`,
      p.values,
    );
    if (bm25) await tx.exec(RESET_INDEX_ORDER);
    for (const r of rows) ids.add(r.id);
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
  const norm = textNormaliser(rows.map((r) => r.text_raw));
  return rows.map((r) => {
    const memory = toMemory(r, model);
    return {
      kind: 'memory' as const,
      id: r.id,
      tag: memoryTag(memory),
      content: r.content,
      score: memoryScore(norm(r.text_raw), cosineOrNull(r.distance), r.importance, r.days),
      memory,
    };
  });
}
