// The numbers recall's ranking was tuned with, in one place, so the retrieval
// bench can choose each one on some conversations and score it on others
// (bench/retrieval.ts --folds, docs/ranking.md). Production always runs the
// defaults: the API door has no way to pass a tuning.
import { NEIGHBOUR_SHARE } from './variants';

export interface RecallTuning {
  /** Share of the best-matching stream neighbour's text score a memory inherits (variants.ts). */
  neighbourShare: number;
  /** A memory written within a time the query names scores (1 + timeBoost)×; 0 turns time off (time-query.ts). */
  timeBoost: number;
  /** Days after a named time that still count as within it: memories tell what happened before they were written. */
  timeSlackDays: number;
  /** A second, text-only round from the first round's best memories scores at this share of its own score; 0 turns it off (second-round.ts). */
  hopShare: number;
  /** How many of the first round's best memories lend words to the second round. */
  hopSeeds: number;
  /** How many of their rarest new words it searches for. */
  hopTerms: number;
  /** The second round searches only the names (capitalised words) of the best memories, not any rare word. */
  hopNames: boolean;
  /** Pseudo-relevance feedback on the vector side: the query vector moves this far toward its best hits (feedback.ts); 0 off. */
  feedback: number;
  /** How many of the first pass's best matching memories the query vector moves toward. */
  feedbackDocs: number;
  /** At least this many text matches are seeds (and may lend neighbour context), whatever the limit (probe.ts). */
  textPool: number;
  /** How many of those text matches lend their stream neighbours context (probe.ts); never more than textPool. */
  contextPool: number;
  /** At most this many of the returned memories from one day; 0 off (diversity.ts). */
  dayCap: number;
  /** Maximal marginal relevance: λ of score against (1 − λ) of likeness to what is already chosen; 0 off (diversity.ts). */
  mmr: number;
  /** The spread (dayCap, mmr) only for questions asking for several things (diversity.ts asksForMany). */
  spreadListOnly: boolean;
  /** The stream neighbours of the best hits join at this share of the hit's score; 0 off (stream-expansion.ts). */
  expandShare: number;
  /** How many of the best hits lend their stream neighbours. */
  expandSeeds: number;
}

export const DEFAULT_TUNING: RecallTuning = {
  neighbourShare: NEIGHBOUR_SHARE,
  // Cross-validated on the LoCoMo dev half: 0.5 chosen on every fold over 1.0 and off (docs/ranking.md).
  timeBoost: 0.5,
  timeSlackDays: 7,
  hopShare: 0,
  hopSeeds: 3,
  hopTerms: 8,
  hopNames: false,
  feedback: 0,
  feedbackDocs: 3,
  textPool: 32,
  contextPool: 32,
  dayCap: 0,
  mmr: 0,
  spreadListOnly: false,
  expandShare: 0,
  expandSeeds: 3,
};

export function tuningWith(t: Partial<RecallTuning> | undefined): RecallTuning {
  return { ...DEFAULT_TUNING, ...t };
}
