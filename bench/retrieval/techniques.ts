// The ranking techniques the retrieval bench cross-validates, each as the
// values its tuned numbers may take. The first value of every axis is the
// production default (tuning.ts), so the first trial is what users run and
// ties go to it.
import type { RecallTuning } from '../../src/core/recall/tuning';

export type Axis = Partial<RecallTuning>[];

/** Always tuned: the neighbour share the default variant was chosen with. */
export const BASE: Axis = [0.5, 0, 0.3, 0.7, 1.0].map((neighbourShare) => ({ neighbourShare }));

/** Techniques that can be switched off; the first value of each is the default. */
export const TECHNIQUES: Record<string, Axis[]> = {};
