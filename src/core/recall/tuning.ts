// The numbers recall's ranking was tuned with, in one place, so the retrieval
// bench can choose each one on some conversations and score it on others
// (bench/retrieval.ts --folds, docs/ranking.md). Production always runs the
// defaults: the API door has no way to pass a tuning.

export interface RecallTuning {
  /**
   * Share of the best-matching neighbour's text score a memory inherits: the memory written just
   * before or after it on the same day, in the same stream, when that neighbour is among the query's
   * top text matches (probe.ts sizes them). Memories written together lean on each other ("she said
   * yes" after "I asked Ana to marry me"), so a match on a neighbour is evidence for the row too.
   */
  neighbourShare: number;
  /** A memory written within a time the query names scores (1 + timeBoost)×; 0 turns time off (time-query.ts). */
  timeBoost: number;
  /** Days after a named time that still count as within it: memories tell what happened before they were written. */
  timeSlackDays: number;
  /** At least this many text matches are seeds (and may lend neighbour context), whatever the limit (probe.ts). */
  textPool: number;
  /** How many of those text matches lend their stream neighbours context (probe.ts); never more than textPool. */
  contextPool: number;
}

export const DEFAULT_TUNING: RecallTuning = {
  // 0.5 measured best of 0.3 / 0.5 / 0.7 / 1.0 (docs/ranking.md).
  neighbourShare: 0.5,
  // Cross-validated on the LoCoMo dev half: 0.5 chosen on every fold over 1.0 and off (docs/ranking.md).
  timeBoost: 0.5,
  timeSlackDays: 7,
  textPool: 32,
  contextPool: 32,
};

export function tuningWith(t: Partial<RecallTuning> | undefined): RecallTuning {
  return { ...DEFAULT_TUNING, ...t };
}
