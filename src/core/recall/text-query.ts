// Turning what a person or a model typed into text-search SQL that never
// raises: no user text is ever parsed as tsquery syntax.
import type { RankingVariant } from '../../shared/api';
import type { Queryable } from '../db/client';
import { bm25FromTsvector, solveIdf, type TokenScore } from './bm25';
import type { Params } from './params';
import { type TextScorer, textScorer } from './variants';

/** Longer queries are cut here: BM25 cost grows with the number of terms. */
export const MAX_QUERY_CHARS = 16_000;

export type TextTable = 'memories' | 'knowledge';

const BM25_INDEX: Record<TextTable, string> = { memories: 'memories_bm25_idx', knowledge: 'knowledge_bm25_idx' };
/** The column each bm25 index reads: a chunk is searched by its key (migrations/0014, docs/ranking.md). */
const BM25_COLUMN: Record<TextTable, string> = { memories: 'content', knowledge: 'search_key' };

export interface TextQuery {
  variant: RankingVariant;
  scorer: TextScorer;
  /** The cleaned query text (what BM25 tokenises itself). */
  text: string;
  /** OR of the query's lexemes, each quoted: "'drink' | 'morn'"; '' when none. */
  orQuery: string;
  lexemes: string[];
  /** BM25 scorer only: each lexeme's weight (IDF in each table's bm25 index × times asked). */
  idf: Record<TextTable, ReadonlyMap<string, number>>;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * NUL cannot enter Postgres text, and a lone UTF-16 surrogate would reach it
 * as invalid UTF-8 (SQLSTATE 22021): both become harmless characters.
 * Everything else is data, never syntax.
 */
export function cleanQuery(q: string): string {
  return q
    .slice(0, MAX_QUERY_CHARS)
    .replace(LONE_SURROGATE, '\ufffd')
    .replaceAll('\u0000', ' ');
}

/** Quotes one lexeme for tsquery input: inside '…', backslash and quote are escaped. */
export function quoteLexeme(l: string): string {
  return `'${l.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * The lexemes come from to_tsvector, already stemmed; they are quoted and cast
 * to tsquery as they are (to_tsquery would stem them twice: sunris → sunri).
 * For BM25, each distinct token is also scored as a one-word document against
 * both bm25 indexes: that gives the IDFs (see bm25.ts).
 */
export async function prepareTextQuery(q: Queryable, query: string, variant: RankingVariant): Promise<TextQuery> {
  const text = cleanQuery(query);
  const scorer = textScorer(variant);
  const tokens =
    scorer === 'bm25'
      ? `(SELECT coalesce(json_agg(json_build_object('lexemes', v.lexemes, 'counts', v.counts,
           'memories', -(d.token <@> to_bm25query(d.token, '${BM25_INDEX.memories}')),
           'knowledge', -(d.token <@> to_bm25query(d.token, '${BM25_INDEX.knowledge}')))), '[]')
         FROM (SELECT DISTINCT token FROM ts_debug('english', $1) WHERE cardinality(lexemes) > 0) d
         CROSS JOIN LATERAL (SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes, array_agg(cardinality(u.positions) ORDER BY u.lexeme) AS counts
           FROM unnest(to_tsvector('english', d.token)) u) v)`
      : `'[]'::json`;
  const { rows } = await q.query<{
    lexemes: string[] | null;
    repeats: number[] | null;
    tokens: (Omit<TokenScore, 'score'> & Record<TextTable, number>)[];
  }>(
    `SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes, array_agg(cardinality(u.positions) ORDER BY u.lexeme) AS repeats, ${tokens} AS tokens
     FROM unnest(to_tsvector('english', $1)) u`,
    [text],
  );
  const lexemes = rows[0]?.lexemes ?? [];
  const repeats = rows[0]?.repeats ?? [];
  const scored = (rows[0]?.tokens ?? []).filter((t) => t.lexemes?.length);
  // BM25 sums over the query's terms: a word asked twice weighs twice.
  const idfIn = (table: TextTable) => {
    const idf = solveIdf(scored.map((t) => ({ lexemes: t.lexemes, counts: t.counts, score: t[table] })));
    return new Map(lexemes.map((l, i) => [l, (idf.get(l) ?? 0) * (repeats[i] ?? 1)]));
  };
  return {
    variant,
    scorer,
    text,
    lexemes,
    orQuery: lexemes.map(quoteLexeme).join(' | '),
    idf: { memories: idfIn('memories'), knowledge: idfIn('knowledge') },
  };
}

/**
 * What a row's text score is computed from, selected as `tsv` (BM25: the
 * content's lexemes, weight B, for rows sharing a lexeme with the query) or
 * `text_raw` (ts_rank, computed here). Rows sharing no lexeme score 0.
 */
export function textColumnsSql(tq: TextQuery, a: string, p: Params): string {
  if (!tq.lexemes.length) return 'NULL::text AS tsv, 0::float8 AS text_raw';
  const o = p.add(tq.orQuery);
  if (tq.scorer === 'bm25') {
    return `CASE WHEN ${a}.search_vector @@ ${o}::tsquery THEN ts_filter(${a}.search_vector, '{b}')::text END AS tsv, 0::float8 AS text_raw`;
  }
  return `NULL::text AS tsv,
    (CASE WHEN ${a}.search_vector @@ ${o}::tsquery THEN ts_rank(${a}.search_vector, ${o}::tsquery) ELSE 0 END)::float8 AS text_raw`;
}

export interface TextColumns {
  tsv: string | null;
  text_raw: number;
}

/** A row's raw text score from the columns textColumnsSql selected. */
export function rawText(tq: TextQuery, table: TextTable, row: TextColumns): number {
  return tq.scorer === 'bm25' ? bm25FromTsvector(row.tsv, tq.idf[table]) : row.text_raw;
}

/**
 * Filter and order of the top-k-by-text candidates: BM25 walks its own index
 * in score order (a search_vector filter here would steer the planner to GIN
 * plus a per-row BM25 sort); ts_rank finds matches through GIN and sorts them.
 */
export function textOrderSql(tq: TextQuery, table: TextTable, a: string, p: Params): { where: string; order: string } {
  if (tq.scorer === 'bm25') return { where: 'true', order: `${a}.${BM25_COLUMN[table]} <@> to_bm25query(${p.add(tq.text)}::text, '${BM25_INDEX[table]}')` };
  const o = p.add(tq.orQuery);
  return { where: `${a}.search_vector @@ ${o}::tsquery`, order: `ts_rank(${a}.search_vector, ${o}::tsquery) DESC` };
}
