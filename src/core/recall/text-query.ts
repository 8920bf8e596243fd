// Turning what a person or a model typed into text-search SQL that never
// raises: no user text is ever parsed as tsquery syntax.
import type { RankingVariant } from '../../shared/api';
import type { Queryable } from '../db/client';
import { bm25FromTsvector } from './bm25';
import type { Params } from './params';
import { type QueryLexemes, quoteLexeme, type TextIndex, type TextTable } from './text-index';
import { type TextScorer, textScorer } from './variants';

export { quoteLexeme, type TextTable } from './text-index';

/** Longer queries are cut here: BM25 cost grows with the number of terms. */
export const MAX_QUERY_CHARS = 16_000;

export interface TextQuery {
  variant: RankingVariant;
  scorer: TextScorer;
  /** Where BM25's statistics and top-k come from (text-index.ts). */
  index: TextIndex;
  /** The cleaned query text (what BM25 tokenises itself). */
  text: string;
  /** OR of the query's lexemes, each quoted: "'drink' | 'morn'"; '' when none. */
  orQuery: string;
  lexemes: string[];
  /** How often each lexeme occurs in the query (same order as `lexemes`). */
  repeats: number[];
  /** BM25 scorer only: each lexeme's weight (IDF in each table × times asked). */
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

/**
 * The lexemes come from to_tsvector, already stemmed; they are quoted and cast
 * to tsquery as they are (to_tsquery would stem them twice: sunris → sunri).
 * For BM25, each distinct token is also scored as a one-word document against
 * both bm25 indexes: that gives the IDFs (see bm25.ts).
 */
export async function prepareTextQuery(q: Queryable, query: string, variant: RankingVariant, index: TextIndex): Promise<TextQuery> {
  const text = cleanQuery(query);
  const scorer = textScorer(variant);
  const { rows } = await q.query<{ lexemes: string[] | null; repeats: number[] | null; tokens: QueryLexemes['tokens'] }>(
    `SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes, array_agg(cardinality(u.positions) ORDER BY u.lexeme) AS repeats,
       ${scorer === 'bm25' ? index.tokensSql : `'[]'::json`} AS tokens
     FROM unnest(to_tsvector('english', $1)) u`,
    [text],
  );
  const read: QueryLexemes = { lexemes: rows[0]?.lexemes ?? [], repeats: rows[0]?.repeats ?? [], tokens: rows[0]?.tokens ?? [] };
  const idf = scorer === 'bm25' ? await index.idf(q, read) : { memories: new Map(), knowledge: new Map() };
  return {
    variant,
    scorer,
    index,
    text,
    lexemes: read.lexemes,
    repeats: read.repeats,
    orQuery: read.lexemes.map(quoteLexeme).join(' | '),
    idf,
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
 * Filter and order of the top-k-by-text candidates among the rows `scope`
 * admits: BM25's from the text index (text-index.ts); ts_rank finds matches
 * through GIN and sorts them.
 */
export async function textTopK(
  q: Queryable,
  tq: TextQuery,
  table: TextTable,
  a: string,
  scope: (p: Params) => string,
  k: number,
  p: Params,
): Promise<{ where: string; order: string }> {
  if (tq.scorer === 'bm25') return tq.index.topK(q, tq, table, a, scope, k, p);
  const o = p.add(tq.orQuery);
  return { where: `${a}.search_vector @@ ${o}::tsquery`, order: `ts_rank(${a}.search_vector, ${o}::tsquery) DESC` };
}

/** Whether the text top-k reads the GIN index (bitmap scans and a sort; probe.ts's planner settings). */
export function textTopKReadsGin(tq: TextQuery): boolean {
  return tq.scorer === 'ts_rank' || tq.index.topKReadsGin;
}
