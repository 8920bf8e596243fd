import type { RankingVariant } from '../../shared/api';

/** Every text-ranking variant recall can run; the benchmark compares them. */
export const RANKING_VARIANTS: readonly RankingVariant[] = ['bm25', 'ts_rank'];

/** Chosen by measurement (bench/retrieval.ts; README "Performance"). */
export const DEFAULT_VARIANT: RankingVariant = 'bm25';
