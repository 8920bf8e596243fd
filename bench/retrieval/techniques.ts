// The ranking techniques the retrieval bench cross-validates, each as the
// values its tuned numbers may take. The first value of every axis is the
// technique switched off (for the neighbour share: the value it had before
// cross-validation), so ties go to not using it.
import type { RecallTuning } from '../../src/core/recall/tuning';

/**
 * A recall tuning, plus what the memories are searched by: vectors of their content or of their
 * contextual key ('context'), or the key for both the vector and the text index ('context+text').
 */
export type BenchSetting = Partial<RecallTuning> & { keys?: 'content' | 'context' | 'context+text' };
export type Axis = BenchSetting[];

/** Always tuned: the neighbour share the default variant was chosen with (0.3 the runner-up when it was chosen on all questions; the grid is small because each value is 762 recalls). */
export const BASE: Axis = [0.5, 0.3].map((neighbourShare) => ({ neighbourShare }));

/** Techniques that can be switched off; the first value of each is off. */
export const TECHNIQUES: Record<string, Axis[]> = {
  time: [[{ timeBoost: 0 }, { timeBoost: 0.5 }, { timeBoost: 1 }]],
  keys: [[{ keys: 'content' }, { keys: 'context' }]],
  /** The contextual key also in the text index (BM25 over day, previous memory and content), on top of key vectors. */
  keytext: [[{ keys: 'context' }, { keys: 'context+text' }]],
  /** How many text matches seed recall and lend neighbour context. */
  pool: [[{ textPool: 32 }, { textPool: 64, contextPool: 64 }]],
  /** 64 text matches seed recall, only the best 32 lend their neighbours context (the neighbours are what a wider pool costs). */
  seedpool: [[{ textPool: 32 }, { textPool: 64, contextPool: 32 }]],
};
