// The ranking techniques the retrieval bench cross-validates, each as the
// values its tuned numbers may take. The first value of every axis is the
// technique switched off (for the neighbour share: the value it had before
// cross-validation), so ties go to not using it.
import type { RecallTuning } from '../../src/core/recall/tuning';

/** A recall tuning, plus which vectors the memories carry: their content's or their contextual key's. */
export type BenchSetting = Partial<RecallTuning> & { keys?: 'content' | 'context' };
export type Axis = BenchSetting[];

/** Always tuned: the neighbour share the default variant was chosen with (0.3 the runner-up when it was chosen on all questions; the grid is small because each value is 762 recalls). */
export const BASE: Axis = [0.5, 0.3].map((neighbourShare) => ({ neighbourShare }));

/** Techniques that can be switched off; the first value of each is off. */
export const TECHNIQUES: Record<string, Axis[]> = {
  time: [[{ timeBoost: 0 }, { timeBoost: 0.5 }, { timeBoost: 1 }]],
  keys: [[{ keys: 'content' }, { keys: 'context' }]],
  /** Multi-hop: a second, text-only round from the first round's best memories (second-round.ts). */
  hop: [[{ hopShare: 0 }, { hopShare: 0.5 }, { hopShare: 0.8 }]],
};
