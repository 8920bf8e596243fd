// Turning what a person or a model typed into text-search SQL that never
// raises: no user text is ever parsed as tsquery syntax.
import type { RankingVariant } from '../../shared/api';
import type { Queryable } from '../db/client';
import type { Params } from './params';
import { type TextScorer, textScorer } from './variants';

/** Longer queries are cut here: BM25 cost grows with the number of terms. */
export const MAX_QUERY_CHARS = 16_000;

export interface TextQuery {
  variant: RankingVariant;
  scorer: TextScorer;
  /** The cleaned query text (what BM25 tokenises itself). */
  text: string;
  /** OR of the query's lexemes, each quoted: "'drink' | 'morn'"; '' when none. */
  orQuery: string;
  lexemes: string[];
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
 */
export async function prepareTextQuery(q: Queryable, query: string, variant: RankingVariant): Promise<TextQuery> {
  const text = cleanQuery(query);
  const { rows } = await q.query<{ lexemes: string[] | null }>(
    `SELECT tsvector_to_array(to_tsvector('english', $1)) AS lexemes`,
    [text],
  );
  const lexemes = rows[0]?.lexemes ?? [];
  return { variant, scorer: textScorer(variant), text, lexemes, orQuery: lexemes.map(quoteLexeme).join(' | ') };
}

export type TextTable = 'memories' | 'knowledge';

const BM25_INDEX: Record<TextTable, string> = { memories: 'memories_bm25_idx', knowledge: 'knowledge_bm25_idx' };

/**
 * The raw text score of row alias `a`. Rows sharing no lexeme with the query
 * score 0 — checked first through search_vector (a superset of the BM25
 * index's content terms), which also spares the per-row BM25 evaluation.
 * BM25's `<@>` is a distance (negative): negated.
 */
export function textScoreSql(tq: TextQuery, table: TextTable, a: string, p: Params): string {
  if (!tq.lexemes.length) return '0::float8';
  const o = p.add(tq.orQuery);
  const raw =
    tq.scorer === 'bm25'
      ? `-(${a}.content <@> to_bm25query(${p.add(tq.text)}::text, '${BM25_INDEX[table]}'))`
      : `ts_rank(${a}.search_vector, ${o}::tsquery)`;
  return `(CASE WHEN ${a}.search_vector @@ ${o}::tsquery THEN (${raw})::float8 ELSE 0::float8 END)`;
}

/**
 * Filter and order of the top-k-by-text candidates: BM25 walks its own index
 * in score order (a search_vector filter here would steer the planner to GIN
 * plus a per-row BM25 sort); ts_rank finds matches through GIN and sorts them.
 */
export function textOrderSql(tq: TextQuery, table: TextTable, a: string, p: Params): { where: string; order: string } {
  if (tq.scorer === 'bm25') return { where: 'true', order: `${a}.content <@> to_bm25query(${p.add(tq.text)}::text, '${BM25_INDEX[table]}')` };
  const o = p.add(tq.orQuery);
  return { where: `${a}.search_vector @@ ${o}::tsquery`, order: `ts_rank(${a}.search_vector, ${o}::tsquery) DESC` };
}
