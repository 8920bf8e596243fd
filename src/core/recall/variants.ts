import type { RankingVariant } from '../../shared/api';

/**
 * Chosen by measurement on the LoCoMo dev half (bench/retrieval.ts, README
 * "Performance"): R@10 .707 with the neighbour context, .671 plain BM25, .665 ts_rank.
 */
export const DEFAULT_VARIANT: RankingVariant = 'bm25_context';

export type TextScorer = 'bm25' | 'ts_rank';

/** The text relevance a variant ranks with: BM25 (pg_textsearch, b = 0) or the literal ts_rank. */
export function textScorer(v: RankingVariant): TextScorer {
  return v === 'ts_rank' ? 'ts_rank' : 'bm25';
}

/**
 * Share of the best-matching neighbour's text score a memory inherits: the
 * memory written just before or after it on the same day, in the same stream,
 * when that neighbour is among the query's top text matches (probe.ts sizes
 * them). Memories written together come from one conversation and lean on
 * each other ("she said yes" after "I asked Ana to marry me"), so a match on
 * a neighbour is evidence for the row too. 0.5 measured best of 0.3 / 0.5 /
 * 0.7 / 1.0.
 */
export const NEIGHBOUR_SHARE = 0.5;

export function usesNeighbours(v: RankingVariant): boolean {
  return v === 'bm25_context';
}
