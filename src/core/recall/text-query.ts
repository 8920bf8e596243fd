// Turning what a person or a model typed into text-search SQL that never
// raises: no user text is ever parsed as tsquery syntax.
import type { Queryable } from '../db/client';
import { bm25FromTsvector } from './bm25';
import type { Params } from './params';
import { type QueryLexemes, quoteLexeme, type TextIndex, type TextTable } from './text-index';

export { quoteLexeme, type TextTable } from './text-index';

/** Longer queries are cut here: BM25 cost grows with the number of terms. */
export const MAX_QUERY_CHARS = 16_000;

export interface TextQuery {
  /** Where BM25's statistics and top-k come from (text-index.ts). */
  index: TextIndex;
  /** The cleaned query text (what BM25 tokenises itself). */
  text: string;
  /** OR of the query's lexemes, each quoted: "'drink' | 'morn'"; '' when none. */
  orQuery: string;
  lexemes: string[];
  /** How often each lexeme occurs in the query (same order as `lexemes`). */
  repeats: number[];
  /** Each lexeme's weight (IDF in each table × times asked). */
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
export async function prepareTextQuery(q: Queryable, query: string, index: TextIndex): Promise<TextQuery> {
  const text = cleanQuery(query);
  const { rows } = await q.query<{ lexemes: string[] | null; repeats: number[] | null; tokens: QueryLexemes['tokens'] }>(
    `SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes, array_agg(cardinality(u.positions) ORDER BY u.lexeme) AS repeats,
       ${index.tokensSql} AS tokens
     FROM unnest(to_tsvector('english', $1)) u`,
    [text],
  );
  const read: QueryLexemes = { lexemes: rows[0]?.lexemes ?? [], repeats: rows[0]?.repeats ?? [], tokens: rows[0]?.tokens ?? [] };
  const idf = await index.idf(q, read);
  return {
    index,
    text,
    lexemes: read.lexemes,
    repeats: read.repeats,
    orQuery: read.lexemes.map(quoteLexeme).join(' | '),
    idf,
  };
}

/**
 * What a row's text score is computed from, selected as `tsv`: the content's
 * lexemes (weight B) of rows sharing a lexeme with the query, else NULL
 * (such rows score 0).
 */
export function textColumnsSql(tq: TextQuery, a: string, p: Params): string {
  if (!tq.lexemes.length) return 'NULL::text AS tsv';
  const o = p.add(tq.orQuery);
  return `CASE WHEN ${a}.search_vector @@ ${o}::tsquery THEN ts_filter(${a}.search_vector, '{b}')::text END AS tsv`;
}

export interface TextColumns {
  tsv: string | null;
}

/** A row's raw BM25 from the columns textColumnsSql selected. */
export function rawText(tq: TextQuery, table: TextTable, row: TextColumns): number {
  return bm25FromTsvector(row.tsv, tq.idf[table]);
}
