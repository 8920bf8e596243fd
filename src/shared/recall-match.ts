// What counts as a match of a search, shared by the core's count and the
// page's "weaker matches" split so the two always agree.
import type { RecallHit } from './types';

/**
 * Below this cosine a vector match says little (unrelated texts often score
 * 0.2–0.3 with the built-in model): it is not counted as a match by meaning.
 */
export const MEANINGFUL_COSINE = 0.45;

/**
 * A hit that contains a word of the query (its own text score, not one lent
 * by a neighbour) or is close in meaning. Other hits were recalled for
 * importance, recency or a neighbour's match: "weaker matches".
 */
export function isMatch(hit: RecallHit): boolean {
  const ownText = hit.score.text - (hit.score.textFromNeighbours ?? 0);
  return ownText > 1e-9 || (hit.score.cosine !== null && hit.score.cosine >= MEANINGFUL_COSINE);
}

/** From this cosine a match by meaning is "fair"; from MEANINGFUL_COSINE, "strong"; below, "weak". */
export const FAIR_COSINE = 0.3;

export type MeaningStrength = 'strong' | 'fair' | 'weak';

/**
 * How close in meaning, in words. The built-in model's cosines run low (a query's best match by
 * meaning may reach only 0.2–0.3 while unrelated texts score 0.1–0.2), so even a weak one is worth
 * showing as the best there is, named for what it is (docs/ui.md).
 */
export function meaningStrength(cosine: number): MeaningStrength {
  return cosine >= MEANINGFUL_COSINE ? 'strong' : cosine >= FAIR_COSINE ? 'fair' : 'weak';
}
