// The ranking formulas of docs/ranking.md, exactly. One place, shared by recall and by the exact
// full-scan scorer, so the two can only differ in which rows they look at.
import type { ScoreBreakdown } from '../../shared/api';

/**
 * Memories: (0.3·text + 0.5·cosine + 0.2·importance/10) · 1/(1 + days) with a
 * query vector and a current-model row vector, else (1.0·text + 0.2·importance/10) · 1/(1 + days).
 * `days` is real-valued; a row stamped in the future (clock skew, imports)
 * counts as brand new (days = 0) instead of dividing by ≤ 0.
 */
export function memoryScore(text: number, cosine: number | null, importance: number, days: number): ScoreBreakdown {
  const imp = (0.2 * importance) / 10;
  const recency = 1 / (1 + Math.max(0, days));
  const base = cosine === null ? 1.0 * text + imp : 0.3 * text + 0.5 * cosine + imp;
  return { text, cosine, importance: imp, recency, final: base * recency };
}

/** Knowledge chunks: 0.4·text + 0.6·cosine, or text alone. No importance, no recency. */
export function knowledgeScore(text: number, cosine: number | null): ScoreBreakdown {
  return { text, cosine, importance: null, recency: null, final: cosine === null ? text : 0.4 * text + 0.6 * cosine };
}

/**
 * Raw BM25 scores → [0, 1], dividing by the best among the
 * query's candidates, so the text term sits on the cosine's scale.
 */
export function textNormaliser(raw: readonly number[]): (x: number) => number {
  const best = raw.reduce((m, x) => (x > m ? x : m), 0);
  return best > 0 ? (x) => Math.max(0, x) / best : () => 0;
}

/** pgvector's cosine distance of a zero vector is NaN: such a row counts as having no vector. */
export function cosineOrNull(distance: number | null): number | null {
  return distance === null || !Number.isFinite(distance) ? null : 1 - distance;
}

/** Best first; ties broken by id so every path orders identically. */
export function byScore<T extends { id: string; score: ScoreBreakdown }>(a: T, b: T): number {
  return b.score.final - a.score.final || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
