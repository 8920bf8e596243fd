/** Fractional recall metrics of bench-data/README.md, averaged over questions. */

export interface QuestionScore {
  category: string;
  r5: number;
  r10: number;
  all10: number;
  mrr: number;
}

export function scoreRanking(ranked: string[], evidence: string[], category: string): QuestionScore {
  const ev = new Set(evidence);
  const top5 = new Set(ranked.slice(0, 5));
  const top10 = new Set(ranked.slice(0, 10));
  const in5 = evidence.filter((e) => top5.has(e)).length;
  const in10 = evidence.filter((e) => top10.has(e)).length;
  const first = ranked.findIndex((id) => ev.has(id));
  return {
    category,
    r5: in5 / evidence.length,
    r10: in10 / evidence.length,
    all10: in10 === evidence.length ? 1 : 0,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
  };
}

export interface Summary {
  n: number;
  r5: number;
  r10: number;
  all10: number;
  mrr: number;
}

function mean(xs: QuestionScore[]): Summary {
  const n = xs.length || 1;
  const sum = (k: keyof Omit<QuestionScore, 'category'>) => xs.reduce((a, x) => a + x[k], 0) / n;
  return { n: xs.length, r5: sum('r5'), r10: sum('r10'), all10: sum('all10'), mrr: sum('mrr') };
}

export function summarize(scores: QuestionScore[]): { overall: Summary; byCategory: Record<string, Summary> } {
  const cats = [...new Set(scores.map((s) => s.category))].sort();
  return {
    overall: mean(scores),
    byCategory: Object.fromEntries(cats.map((c) => [c, mean(scores.filter((s) => s.category === c))])),
  };
}
