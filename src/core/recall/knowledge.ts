// Recall over knowledge chunks: the top-k by text, by chunk vector and by
// sentence-window vector, scored in one statement (no importance, no recency:
// nothing else can outrank them); the exact scan scores every chunk of the
// persona. A chunk's cosine is its best window's (docs/ranking.md,
// "Knowledge"); a chunk without embedded windows (an import, an older
// version) keeps its own. Content is read for the hits only.
import type { KnowledgeMatch, RecallHit, ScoreBreakdown } from '../../shared/api';
import type { Queryable } from '../db/client';
import { Params } from './params';
import type { CandidateSizes, Probe } from './probe';
import { byScore, cosineOrNull, knowledgeScore, textNormaliser } from './score';
import { rawText, type TextColumns, textColumnsSql } from './text-query';
import { distanceSql, vectorOrderSql } from './vector-order';

interface ChunkScoringRow extends TextColumns {
  id: string;
  distance: number | null;
  window_distance: number | null;
}

/** The best (smallest) distance among the chunk's current-model windows; NULL without any. */
function windowDistanceSql(probe: Probe, a: string, p: Params): string {
  if (!probe.vector) return 'NULL::float8';
  return `(SELECT min(${distanceSql(probe, 'w', p)}) FROM knowledge_windows w WHERE w.chunk_id = ${a}.id)`;
}

function scoringColumns(probe: Probe, p: Params): string {
  return `k.id, ${textColumnsSql(probe.tq, 'k', p)}, ${distanceSql(probe, 'k', p)} AS distance, ${windowDistanceSql(probe, 'k', p)} AS window_distance`;
}

async function candidateRows(q: Queryable, probe: Probe, k: CandidateSizes): Promise<ChunkScoringRow[]> {
  const p = new Params();
  const persona = p.add(probe.persona);
  const parts: string[] = [];
  if (probe.tq.lexemes.length) {
    const { where, order } = await probe.tq.index.topK(q, probe.tq, 'knowledge', 'k', (sp) => `k.persona = ${sp.add(probe.persona)}`, k.text, p);
    parts.push(`SELECT ${scoringColumns(probe, p)} FROM knowledge_chunks k WHERE k.persona = ${persona} AND ${where} ORDER BY ${order} LIMIT ${p.add(k.text)}`);
  }
  if (probe.vector) {
    const vp = { ...probe, vector: probe.vector };
    const chunks = vectorOrderSql(vp, 'k', p);
    parts.push(`SELECT ${scoringColumns(probe, p)} FROM knowledge_chunks k WHERE k.persona = ${persona} AND ${chunks.where} ORDER BY ${chunks.order} LIMIT ${p.add(k.vector)}`);
    // The windows' own HNSW probe: the chunks holding the sentences nearest the question.
    const windows = vectorOrderSql(vp, 'w', p);
    parts.push(
      `SELECT ${scoringColumns(probe, p)} FROM knowledge_chunks k WHERE k.id IN (
         SELECT w.chunk_id FROM knowledge_windows w WHERE w.persona = ${persona} AND ${windows.where} ORDER BY ${windows.order} LIMIT ${p.add(k.vector)})`,
    );
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

interface HitRow {
  id: string;
  source: string;
  chunk_index: number;
  content: string;
  page_from: number | null;
  start_at: number | null;
  end_at: number | null;
  page: number | null;
}

/** The hits' text, with the window nearest the question (what the UI highlights) when there is a query vector. */
async function hitRows(q: Queryable, probe: Probe, ids: string[]): Promise<HitRow[]> {
  const p = new Params();
  const list = p.add(ids);
  const best = probe.vector
    ? `LEFT JOIN LATERAL (SELECT w.start_at, w.end_at, w.page FROM knowledge_windows w
         WHERE w.chunk_id = k.id AND w.embedding_model = ${p.add(probe.model)}
         -- Sentences that differ only in a name or a number sit almost on top of each other in
         -- vector space: the one holding more of the question's words is the one to show.
         ORDER BY (SELECT count(*) FROM unnest(tsvector_to_array(to_tsvector('english',
                     substring(k.content FROM w.start_at + 1 FOR w.end_at - w.start_at)))) l
                   WHERE l = ANY(${p.add(probe.tq.lexemes)}::text[])) DESC,
                  w.embedding <=> ${p.add(probe.vector)}::vector, w.window_index LIMIT 1) bw ON true`
    : 'LEFT JOIN (SELECT NULL::int AS start_at, NULL::int AS end_at, NULL::int AS page) bw ON true';
  const { rows } = await q.query<HitRow>(
    `SELECT k.id, k.source, k.chunk_index, k.content, k.page_from, bw.start_at, bw.end_at, bw.page
     FROM knowledge_chunks k ${best} WHERE k.id = ANY(${list}::uuid[])`,
    p.values,
  );
  return rows;
}

function matchOf(r: HitRow): KnowledgeMatch | undefined {
  if (r.start_at === null || r.end_at === null) return r.page_from === null ? undefined : { page: r.page_from };
  return { start: r.start_at, end: r.end_at, page: r.page ?? r.page_from ?? null };
}

/** The persona's best `limit` chunks for the query; `exact` scores every chunk. */
export async function recallKnowledge(q: Queryable, probe: Probe, sizes: CandidateSizes, limit: number, exact: boolean): Promise<RecallHit[]> {
  const rows = exact ? await everyRow(q, probe) : await candidateRows(q, probe, sizes);
  const raw = rows.map((r) => rawText(probe.tq, 'knowledge', r));
  const norm = textNormaliser(raw);
  const top: { id: string; score: ScoreBreakdown }[] = rows
    .map((r, i) => ({ id: r.id, score: knowledgeScore(norm(raw[i]!), cosineOrNull(r.window_distance) ?? cosineOrNull(r.distance)) }))
    .filter((h) => h.score.final > 0)
    .sort(byScore)
    .slice(0, limit);
  if (!top.length) return [];
  const byId = new Map((await hitRows(q, probe, top.map((t) => t.id))).map((r) => [r.id, r]));
  return top.flatMap(({ id, score }) => {
    const r = byId.get(id);
    if (!r) return [];
    const match = matchOf(r);
    return [
      {
        kind: 'knowledge' as const,
        id,
        tag: `[knowledge ${r.source}#${r.chunk_index}]`,
        content: r.content,
        score,
        source: r.source,
        chunkIndex: r.chunk_index,
        ...(match ? { match } : {}),
      },
    ];
  });
}
