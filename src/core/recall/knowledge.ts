// Recall over knowledge chunks: candidates by text and by vector, then exact scoring.
import type { RecallHit } from '../../shared/api';
import type { Queryable } from '../db/client';
import { Params } from './params';
import { type CandidateSizes, FORCE_INDEX_ORDER, hnswSettings, type Probe, RESET_HNSW_SETTINGS, RESET_INDEX_ORDER } from './probe';
import { cosineOrNull, knowledgeScore, textNormaliser } from './score';
import { textOrderSql, textScoreSql } from './text-query';

interface ScoredChunk {
  id: string;
  source: string;
  chunk_index: number;
  content: string;
  text_raw: number;
  distance: number | null;
}

export async function scoreChunkRows(q: Queryable, probe: Probe, restrict: (p: Params) => string): Promise<ScoredChunk[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const text = textScoreSql(probe.tq, 'knowledge', 'k', p);
  const distance = probe.vector
    ? `CASE WHEN k.embedding IS NOT NULL AND k.embedding_model = ${p.add(probe.model)} THEN (k.embedding <=> ${p.add(probe.vector)}::vector)::float8 END`
    : 'NULL::float8';
  const where = restrict(p);
  const { rows } = await q.query<ScoredChunk>(
    `SELECT k.id, k.source, k.chunk_index, k.content, ${text} AS text_raw, ${distance} AS distance
     FROM knowledge_chunks k WHERE k.persona = ${persona} AND ${where}`,
    p.values,
  );
  return rows;
}

export async function knowledgeCandidates(tx: Queryable, probe: Probe, k: CandidateSizes): Promise<string[]> {
  const ids = new Set<string>();
  if (probe.tq.lexemes.length) {
    const p = new Params();
    const persona = p.add(probe.persona);
    const { where, order } = textOrderSql(probe.tq, 'knowledge', 'k', p);
    const bm25 = probe.tq.scorer === 'bm25';
    if (bm25) await tx.exec(FORCE_INDEX_ORDER);
    const { rows } = await tx.query<{ id: string }>(
      `SELECT k.id FROM knowledge_chunks k WHERE k.persona = ${persona} AND ${where} ORDER BY ${order} LIMIT ${p.add(k.text)}`,
      p.values,
    );
    if (bm25) await tx.exec(RESET_INDEX_ORDER);
    for (const r of rows) ids.add(r.id);
  }
  if (probe.vector) {
    await tx.exec(hnswSettings(k.vector));
    const { rows } = await tx.query<{ id: string }>(
      `SELECT k.id FROM knowledge_chunks k
       WHERE k.persona = $1 AND k.embedding_model = $2
       ORDER BY k.embedding <=> $3::vector LIMIT $4`,
      [probe.persona, probe.model, probe.vector, k.vector],
    );
    await tx.exec(RESET_HNSW_SETTINGS);
    for (const r of rows) ids.add(r.id);
  }
  return [...ids];
}

export function knowledgeHits(rows: ScoredChunk[]): RecallHit[] {
  const norm = textNormaliser(rows.map((r) => r.text_raw));
  return rows.map((r) => ({
    kind: 'knowledge' as const,
    id: r.id,
    tag: `[knowledge ${r.source}#${r.chunk_index}]`,
    content: r.content,
    score: knowledgeScore(norm(r.text_raw), cosineOrNull(r.distance)),
    source: r.source,
    chunkIndex: r.chunk_index,
  }));
}
