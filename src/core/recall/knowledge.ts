// Recall over knowledge chunks: the top-k by text and by vector, scored in one
// statement (no importance, no recency: nothing else can outrank them); the
// exact scan scores every chunk of the persona. Content is read for the hits only.
import type { RecallHit, ScoreBreakdown } from '../../shared/api';
import type { Queryable } from '../db/client';
import { Params } from './params';
import type { CandidateSizes, Probe } from './probe';
import { byScore, cosineOrNull, knowledgeScore, textNormaliser } from './score';
import { rawText, type TextColumns, textColumnsSql, textOrderSql } from './text-query';
import { distanceSql, vectorOrderSql } from './vector-order';

interface ChunkScoringRow extends TextColumns {
  id: string;
  distance: number | null;
}

function scoringColumns(probe: Probe, p: Params): string {
  return `k.id, ${textColumnsSql(probe.tq, 'k', p)}, ${distanceSql(probe, 'k', p)} AS distance`;
}

async function candidateRows(q: Queryable, probe: Probe, k: CandidateSizes): Promise<ChunkScoringRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const parts: string[] = [];
  if (probe.tq.lexemes.length) {
    const { where, order } = textOrderSql(probe.tq, 'knowledge', 'k', p);
    parts.push(`SELECT ${scoringColumns(probe, p)} FROM knowledge_chunks k WHERE k.persona = ${persona} AND ${where} ORDER BY ${order} LIMIT ${p.add(k.text)}`);
  }
  if (probe.vector) {
    const { where, order } = vectorOrderSql({ ...probe, vector: probe.vector }, 'k', p);
    parts.push(`SELECT ${scoringColumns(probe, p)} FROM knowledge_chunks k WHERE k.persona = ${persona} AND ${where} ORDER BY ${order} LIMIT ${p.add(k.vector)}`);
  }
  if (!parts.length) return [];
  const { rows } = await q.query<ChunkScoringRow>(parts.map((s) => `(${s})`).join(' UNION ALL '), p.values);
  return [...new Map(rows.map((r) => [r.id, r])).values()];
}

async function everyRow(q: Queryable, probe: Probe): Promise<ChunkScoringRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const { rows } = await q.query<ChunkScoringRow>(`SELECT ${scoringColumns(probe, p)} FROM knowledge_chunks k WHERE k.persona = ${persona}`, p.values);
  return rows;
}

/** The persona's best `limit` chunks for the query; `exact` scores every chunk. */
export async function recallKnowledge(q: Queryable, probe: Probe, sizes: CandidateSizes, limit: number, exact: boolean): Promise<RecallHit[]> {
  const rows = exact ? await everyRow(q, probe) : await candidateRows(q, probe, sizes);
  const raw = rows.map((r) => rawText(probe.tq, 'knowledge', r));
  const norm = textNormaliser(raw);
  const top: { id: string; score: ScoreBreakdown }[] = rows
    .map((r, i) => ({ id: r.id, score: knowledgeScore(norm(raw[i]!), cosineOrNull(r.distance)) }))
    .filter((h) => h.score.final > 0)
    .sort(byScore)
    .slice(0, limit);
  if (!top.length) return [];
  const { rows: full } = await q.query<{ id: string; source: string; chunk_index: number; content: string }>(
    `SELECT k.id, k.source, k.chunk_index, k.content FROM knowledge_chunks k WHERE k.id = ANY($1::uuid[])`,
    [top.map((t) => t.id)],
  );
  const byId = new Map(full.map((r) => [r.id, r]));
  return top.flatMap(({ id, score }) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{ kind: 'knowledge' as const, id, tag: `[knowledge ${r.source}#${r.chunk_index}]`, content: r.content, score, source: r.source, chunkIndex: r.chunk_index }];
  });
}
