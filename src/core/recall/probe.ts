import type { MemoryFilters } from '../../shared/api';
import type { TextQuery } from './text-query';
import type { DayRange } from './time-query';
import type { RecallTuning } from './tuning';

/** Everything one recall needs besides the rows: fixed once per query. */
export interface Probe {
  persona: string;
  tq: TextQuery;
  /** The query vector in pgvector binary, or null for text-only. */
  vector: Uint8Array | null;
  /** Only rows embedded by this model have a comparable vector. */
  model: string;
  now: Date;
  date?: string;
  /** Superseded memories are scored too (docs/history.md); by default only current ones are. */
  includeSuperseded?: boolean;
  /** The ranking's tuned numbers (tuning.ts): always the defaults outside the retrieval bench. */
  tuning: RecallTuning;
  /** Days the query names (time-query.ts, already widened by the slack); memories written then get the time boost. */
  timeRanges: DayRange[];
  /** Only memories passing these are considered, in every statement that picks candidates (memory-rows.ts). */
  filters?: MemoryFilters;
  /** The exact top-k by vector among rows whose imported vectors are not in the graph yet (staged-pass.ts). */
  staged?: string[];
}

/** How many seeds each index contributes. */
export interface CandidateSizes {
  text: number;
  /** How many of the best `text` matches lend their stream neighbours context (tuning.ts neighbourShare): at most `text`. */
  context: number;
  vector: number;
  /** The newest rows of each importance level 1..10. */
  recent: number;
}

/**
 * The text and vector top-k also bound what an unseen row can score
 * (memory-bounds.ts): a larger k costs more seeds but tightens the bound.
 * `limit` newest rows per importance level guarantee that `limit` rows are
 * scored before the bound is computed. The text matches' neighbours are what
 * a wider text pool costs (two row lookups per match: docs/ranking.md, "What a
 * wider text pool costs"), so how many matches lend context is sized on its own.
 */
export function candidateSizes(limit: number, textPool = 32, contextPool = textPool): CandidateSizes {
  const text = Math.max(textPool, 3 * limit);
  return {
    text,
    context: Math.min(text, Math.max(contextPool, 3 * limit)),
    vector: Math.max(40, 4 * limit),
    recent: limit,
  };
}

/**
 * Planner settings for one recall (SET LOCAL: they end with its transaction).
 * The bm25 top-k must walk its index (on small tables the planner would rather
 * sort every row by a per-row `<@>`); HNSW returns at most ef_search rows and
 * the planner prefers a seq scan or the persona btree + sort unless told
 * otherwise (docs/ranking.md, "At scale"): force the indexes, let HNSW scan on
 * past other personas' rows, keep ef ≥ k. The neighbour lookups need the
 * (persona, day, seq) btree walked backwards, not a bitmap scan and a sort of
 * the whole day. A text top-k read through GIN (BM25 without pg_textsearch,
 * text-index.ts) needs bitmap scans, the only
 * way Postgres reads GIN, and a sort by score.
 */
export function indexSettings(k: CandidateSizes, textReadsGin: boolean): string {
  const ef = Math.min(1000, Math.max(HNSW_EF_SEARCH, k.vector));
  const gin = textReadsGin ? 'on' : 'off';
  return `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = ${gin}; SET LOCAL enable_sort = ${gin};
    SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${ef};`;
}

/**
 * HNSW's candidate list. The vector top-k only seeds recall and bounds what
 * unseen rows can score; the bound fetches whatever it cannot rule out, so a
 * short list costs agreement nothing measurable (1.0 over 20 queries at 50k)
 * and saves ~4 ms against ef 100.
 */
const HNSW_EF_SEARCH = 64;
