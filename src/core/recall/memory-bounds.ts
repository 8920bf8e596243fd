// Which memories recall has not scored could still reach the top `limit`.
// A row outside the seeds has text at most the k-th best text match (it is
// not among the top k) and cosine at most the k-th best vector match, so its
// score is at most (0.3·T + 0.5·C + 0.2·importance/10) / (1 + days), or
// (T + 0.2·importance/10) / (1 + days) under the text-only formula. Only rows
// young enough for that bound to reach the current limit-th score need
// scoring: per importance level, those inserted after a cutoff.
import type { LevelWindow } from './memory-rows';

const DAY_MS = 86_400_000;

export interface BoundInputs {
  /** The limit-th best score among the rows scored so far. */
  floor: number;
  /** Upper bound of an unseen row's normalised text score. */
  text: number;
  /** Upper bound of an unseen row's cosine, or null without a query vector. */
  cosine: number | null;
  now: Date;
}

/** The newest rows of each importance level that can still beat `floor`; levels that cannot are left out. */
export function levelWindows(b: BoundInputs): LevelWindow[] {
  const out: LevelWindow[] = [];
  if (!(b.floor > 0)) return out;
  // 1/(1 + days) ≥ floor / reach  ⇔  days ≤ reach / floor − 1; a hair of slack keeps exact ties.
  const since = (reach: number) => new Date(b.now.getTime() - (reach / b.floor - 1) * DAY_MS - 1);
  for (let importance = 1; importance <= 10; importance++) {
    const imp = (0.2 * importance) / 10;
    const textReach = b.text + imp;
    const vectorReach = b.cosine === null ? textReach : 0.3 * b.text + 0.5 * b.cosine + imp;
    if (Math.max(textReach, vectorReach) < b.floor) continue;
    out.push({
      importance,
      // A row without a current-model vector is scored by the text formula, one with a vector by the hybrid one.
      since: since(Math.max(textReach, vectorReach)),
      sinceVector: since(vectorReach),
    });
  }
  return out;
}
