import type { TextQuery } from './text-query';

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
}

/** How many candidates each index contributes. */
export interface CandidateSizes {
  text: number;
  vector: number;
  /** The most recent rows of each importance level 1..10. */
  recentPerImportance: number;
}

/**
 * Each candidate's BM25 term costs a per-row `<@>` evaluation (~50–200 µs),
 * so the recency source stays modest; agreement with the full scan is
 * measured in agreement.test.ts and bench/recall.ts.
 */
export function candidateSizes(limit: number): CandidateSizes {
  const k = Math.max(64, 4 * limit);
  return { text: k, vector: k, recentPerImportance: Math.max(24, 2 * limit) };
}

/** The BM25 top-k must walk its index: on small tables the planner would rather sort every row by a per-row `<@>`. */
export const FORCE_INDEX_ORDER = 'SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off;';
export const RESET_INDEX_ORDER = 'RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort;';

/**
 * HNSW returns at most ef_search rows, and the planner prefers a seq scan or
 * the persona btree + sort unless told otherwise (STACK-FACTS planner traps):
 * force the index, let it scan on past filtered-out rows, keep ef ≥ k.
 */
export function hnswSettings(k: number): string {
  const ef = Math.min(1000, Math.max(200, 2 * k));
  return `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off;
    SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${ef};`;
}

export const RESET_HNSW_SETTINGS = 'RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort; RESET hnsw.iterative_scan; RESET hnsw.ef_search;';
