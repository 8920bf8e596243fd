// Leave-one-conversation-out cross-validation of recall's tuned numbers: for
// each conversation, the setting with the best mean R@10 on the other four is
// chosen, then scored on the held-out one. Each question is thus scored by a
// setting chosen without it, which is what a new user's memory would see.
import { type QuestionScore, type Summary, summarize } from './metrics';

export interface Trial<T> {
  setting: T;
  /** One score per question, in the order of `convOf`. */
  scores: QuestionScore[];
}

export interface Fold<T> {
  conv: string;
  chosen: T;
  held: Summary;
}

export interface CrossValidated<T> {
  folds: Fold<T>[];
  /** Every question scored in its held-out fold. */
  pooled: { overall: Summary; byCategory: Record<string, Summary> };
  meanFold: number;
  worstFold: number;
}

const meanR10 = (xs: QuestionScore[]) => xs.reduce((a, x) => a + x.r10, 0) / Math.max(1, xs.length);

/** Ties go to the earlier trial: list the production default first. */
export function crossValidate<T>(convOf: string[], trials: Trial<T>[]): CrossValidated<T> {
  const convs = [...new Set(convOf)];
  const pooled: QuestionScore[] = [];
  const folds = convs.map((conv) => {
    let best = trials[0]!;
    let bestR = -1;
    for (const t of trials) {
      const r = meanR10(t.scores.filter((_, i) => convOf[i] !== conv));
      if (r > bestR + 1e-12) {
        best = t;
        bestR = r;
      }
    }
    const held = best.scores.filter((_, i) => convOf[i] === conv);
    pooled.push(...held);
    return { conv, chosen: best.setting, held: summarize(held).overall };
  });
  const r10s = folds.map((f) => f.held.r10);
  return {
    folds,
    pooled: summarize(pooled),
    meanFold: r10s.reduce((a, x) => a + x, 0) / Math.max(1, r10s.length),
    worstFold: Math.min(...r10s),
  };
}

/** Every combination of the given values: [{a:1},{a:2}] × [{b:0},{b:1}] → four settings. */
export function product<T extends object>(axes: Partial<T>[][]): Partial<T>[] {
  return axes.reduce<Partial<T>[]>((acc, axis) => acc.flatMap((a) => axis.map((v) => ({ ...a, ...v }))), [{}]);
}
