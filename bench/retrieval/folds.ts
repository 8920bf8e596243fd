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
  /** The best setting on all questions at once: what tuning on the whole set reports (optimistic). */
  inSample: { setting: T; overall: Summary; byCategory: Record<string, Summary> };
}

const meanR10 = (xs: QuestionScore[]) => xs.reduce((a, x) => a + x.r10, 0) / Math.max(1, xs.length);

/** Picks the trial with the best mean R@10 over the questions `use` keeps; ties go to the earlier trial. */
function best<T>(trials: Trial<T>[], use: (i: number) => boolean): Trial<T> {
  let out = trials[0]!;
  let outR = -1;
  for (const t of trials) {
    const r = meanR10(t.scores.filter((_, i) => use(i)));
    if (r > outR + 1e-12) {
      out = t;
      outR = r;
    }
  }
  return out;
}

/**
 * `trialsFor(conv)`: the settings that fold may choose from (list the
 * production default first). They may differ per fold: a technique is tried
 * on top of the neighbour share that fold's own baseline chose.
 */
export async function crossValidate<T>(convOf: string[], trialsFor: (heldOut: string) => Promise<Trial<T>[]>): Promise<CrossValidated<T>> {
  const convs = [...new Set(convOf)];
  const pooled: QuestionScore[] = [];
  const all: Trial<T>[] = [];
  const folds: Fold<T>[] = [];
  for (const conv of convs) {
    const trials = await trialsFor(conv);
    all.push(...trials);
    const chosen = best(trials, (i) => convOf[i] !== conv);
    const held = chosen.scores.filter((_, i) => convOf[i] === conv);
    pooled.push(...held);
    folds.push({ conv, chosen: chosen.setting, held: summarize(held).overall });
  }
  const r10s = folds.map((f) => f.held.r10);
  const top = best(all, () => true);
  return {
    folds,
    pooled: summarize(pooled),
    meanFold: r10s.reduce((a, x) => a + x, 0) / Math.max(1, r10s.length),
    worstFold: Math.min(...r10s),
    inSample: { setting: top.setting, ...summarize(top.scores) },
  };
}

/** Every combination of the given values: [{a:1},{a:2}] × [{b:0},{b:1}] → four settings. */
export function product<T extends object>(axes: Partial<T>[][]): Partial<T>[] {
  return axes.reduce<Partial<T>[]>((acc, axis) => acc.flatMap((a) => axis.map((v) => ({ ...a, ...v }))), [{}]);
}
