// Where BM25's term statistics and its top-k come from: pg_textsearch's bm25
// index when the database has it (PGlite always does), or Hearth's own
// statistics read through the GIN index over `search_vector` when it does not
// (a PostgreSQL server without pg_textsearch). Both give the same IDFs and the
// same top-k for the same rows (docs/ranking.md, "Without pg_textsearch"), so
// recall code asks the strategy instead of testing which database it is on.
import type { DbFeatures } from '../db/features';
import type { Queryable } from '../db/client';
import { bm25FromTsvector, solveIdf, type TokenScore } from './bm25';
import { Params } from './params';

export type TextTable = 'memories' | 'knowledge';
export const TEXT_TABLES: readonly TextTable[] = ['memories', 'knowledge'];

/** `pg_textsearch`: its bm25 index. `term_stats`: Hearth's own statistics over the GIN index. */
export type TextIndexKind = 'pg_textsearch' | 'term_stats';

/** The one place the choice is made in production: from what the database has. */
export function textIndexFor(features: DbFeatures): TextIndexKind {
  return features.bm25 ? 'pg_textsearch' : 'term_stats';
}

const BM25_INDEX: Record<TextTable, string> = { memories: 'memories_bm25_idx', knowledge: 'knowledge_bm25_idx' };
/** The column each bm25 index reads: a chunk is searched by its key (migrations/0014, docs/ranking.md). */
const BM25_COLUMN: Record<TextTable, string> = { memories: 'content', knowledge: 'search_key' };
const SQL_TABLE: Record<TextTable, string> = { memories: 'memories', knowledge: 'knowledge_chunks' };

/** What the query's lexeme statement read ($1 = the cleaned query text). */
export interface QueryLexemes {
  lexemes: string[];
  /** How often each lexeme occurs in the query: BM25 sums over the query's terms. */
  repeats: number[];
  /** pg_textsearch only: each distinct token scored alone against both indexes. */
  tokens: (Omit<TokenScore, 'score'> & Record<TextTable, number>)[];
}

/** What the top-k needs of a text query. */
export interface TopKQuery {
  text: string;
  lexemes: string[];
  idf: Record<TextTable, ReadonlyMap<string, number>>;
}

export interface TextIndex {
  readonly kind: TextIndexKind;
  /** A column of the lexeme statement (`$1` is the query text) holding what `idf` needs; `'[]'::json` when nothing. */
  readonly tokensSql: string;
  /** Each query lexeme's weight in each table: its IDF (a 32-bit float, as pg_textsearch keeps it) × times asked. */
  idf(q: Queryable, read: QueryLexemes): Promise<Record<TextTable, Map<string, number>>>;
  /**
   * Filter and order (over alias `a`, parameters in `p`) of the top `k` rows
   * of `table` by BM25 among those `scope` admits; the caller adds the LIMIT.
   * `scope(p2, a)` is the SQL predicate of the rows recall may consider.
   */
  topK(q: Queryable, query: TopKQuery, table: TextTable, a: string, scope: (p: Params) => string, k: number, p: Params): Promise<{ where: string; order: string }>;
  /** Whether the top-k reads the GIN index, which Postgres reads only through bitmap scans, and sorts. */
  readonly topKReadsGin: boolean;
}

/** Quotes one lexeme for tsquery input: inside '…', backslash and quote are escaped. */
export function quoteLexeme(l: string): string {
  return `'${l.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** A tsquery matching `lexeme` in a row's weight-B part only: the part the bm25 indexes read (content, a chunk's key). */
function weightB(l: string): string {
  return `${quoteLexeme(l)}:B`;
}

function weighted(idf: ReadonlyMap<string, number>, lexemes: string[], repeats: number[]): Map<string, number> {
  return new Map(lexemes.map((l, i) => [l, (idf.get(l) ?? 0) * (repeats[i] ?? 1)]));
}

/**
 * pg_textsearch: each lexeme's IDF solved from the index's score of each query
 * token alone (bm25.ts), and the top-k walked in the index's own order.
 */
const pgTextsearch: TextIndex = {
  kind: 'pg_textsearch',
  topKReadsGin: false,
  tokensSql: `(SELECT coalesce(json_agg(json_build_object('lexemes', v.lexemes, 'counts', v.counts,
       'memories', -(d.token <@> to_bm25query(d.token, '${BM25_INDEX.memories}')),
       'knowledge', -(d.token <@> to_bm25query(d.token, '${BM25_INDEX.knowledge}')))), '[]')
     FROM (SELECT DISTINCT token FROM ts_debug('english', $1) WHERE cardinality(lexemes) > 0) d
     CROSS JOIN LATERAL (SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes, array_agg(cardinality(u.positions) ORDER BY u.lexeme) AS counts
       FROM unnest(to_tsvector('english', d.token)) u) v)`,
  async idf(_q, read) {
    const scored = read.tokens.filter((t) => t.lexemes?.length);
    const out = {} as Record<TextTable, Map<string, number>>;
    for (const table of TEXT_TABLES) {
      const idf = solveIdf(scored.map((t) => ({ lexemes: t.lexemes, counts: t.counts, score: t[table] })));
      out[table] = weighted(idf, read.lexemes, read.repeats);
    }
    return out;
  },
  // Walks the bm25 index in score order: a search_vector filter here would steer the planner to GIN plus a per-row sort.
  async topK(_q, query, table, a, _scope, _k, p) {
    return { where: 'true', order: `${a}.${BM25_COLUMN[table]} <@> to_bm25query(${p.add(query.text)}::text, '${BM25_INDEX[table]}')` };
  },
};

/**
 * Each query lexeme's IDF from Hearth's own counts (table bm25_stats,
 * migrations/0019, kept by triggers in the writing transaction): N, the rows
 * whose indexed text yields any lexeme (all personas: the bm25 indexes span
 * the whole table), and df, the rows holding the lexeme. The IDF is
 * pg_textsearch's formula, computed by the database's own `ln` and kept as a
 * 32-bit float as it keeps it, so both paths agree to the last bit.
 */
function statsSql(table: TextTable): string {
  const t = tableLiteral(table);
  return `ARRAY(
      SELECT CASE WHEN coalesce(d.docs, 0) <= 0 OR n.docs IS NULL THEN 0::float8
        ELSE ln(1::float8 + ((n.docs - d.docs)::float8 + 0.5::float8) / (d.docs::float8 + 0.5::float8))::float4::float8 END
      FROM unnest($1::text[]) WITH ORDINALITY AS q(term, i)
        LEFT JOIN bm25_stats d ON d.tbl = ${t} AND d.term = q.term
        LEFT JOIN bm25_stats n ON n.tbl = ${t} AND n.term = ''
      ORDER BY q.i) AS ${table}`;
}

/** A table name as an SQL literal (ours, never user text). */
function tableLiteral(table: TextTable): string {
  return `'${SQL_TABLE[table]}'`;
}

const termStats: TextIndex = {
  kind: 'term_stats',
  topKReadsGin: true,
  tokensSql: `'[]'::json`,
  async idf(q, read) {
    const out = { memories: new Map<string, number>(), knowledge: new Map<string, number>() };
    if (!read.lexemes.length) return out;
    const { rows } = await q.query<Record<TextTable, number[]>>(`SELECT ${TEXT_TABLES.map(statsSql).join(', ')}`, [read.lexemes]);
    for (const table of TEXT_TABLES) {
      const got = rows[0]?.[table] ?? [];
      out[table] = weighted(new Map(read.lexemes.map((l, i) => [l, Number(got[i] ?? 0)])), read.lexemes, read.repeats);
    }
    return out;
  },
  // Every row holding a query lexeme in its indexed text is read through GIN
  // and scored in JS from its lexemes, as recall scores (computing the score in
  // SQL costs ~0.5 ms a row in PGlite, bm25.ts ~1 µs). Best first; equal
  // scores by id, as everywhere in recall (pg_textsearch picks among equal
  // scores by its own layout: docs/ranking.md, "Without pg_textsearch").
  async topK(q, query, table, a, scope, k, p) {
    const idf = query.idf[table];
    const lexemes = query.lexemes.filter((l) => (idf.get(l) ?? 0) > 0);
    if (!lexemes.length || k <= 0) return { where: 'false', order: `${a}.id` };
    const own = new Params();
    const where = `${a}.search_vector @@ ${own.add(lexemes.map(weightB).join(' | '))}::tsquery AND ${scope(own)}`;
    const { rows } = await q.query<{ id: string; tsv: string }>(
      `SELECT ${a}.id, ts_filter(${a}.search_vector, '{b}')::text AS tsv FROM ${SQL_TABLE[table]} ${a} WHERE ${where}`,
      own.values,
    );
    const ids = rows
      .map((r) => ({ id: r.id, score: bm25FromTsvector(r.tsv, idf) }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .slice(0, k)
      .map((r) => r.id);
    const list = p.add(ids);
    return { where: `${a}.id = ANY(${list}::uuid[])`, order: `array_position(${list}::uuid[], ${a}.id)` };
  },
};

export function textIndex(kind: TextIndexKind): TextIndex {
  return kind === 'pg_textsearch' ? pgTextsearch : termStats;
}
