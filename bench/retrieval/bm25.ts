// A plain BM25 over the same turns, computed by the bench itself: the
// reference the production ranking is compared with (k1 = 1.2, b = 0.75,
// English stop words removed, no stemming — as in bench-data/README.md).

const STOP = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can did do does doing down during each few for from further had has have having he her here hers herself him himself his
  how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours
  ourselves out over own same she should so some such than that the their theirs them themselves then there these they
  this those through to too under until up very was we were what when where which while who whom why will with would you
  your yours yourself yourselves`.split(/\s+/),
);

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [])
    .map((t) => t.replace(/'[a-z]+$/, ''))
    .filter((t) => t && !STOP.has(t));
}

export class Bm25 {
  private docs: { id: string; tf: Map<string, number>; len: number }[] = [];
  private df = new Map<string, number>();
  private avgLen = 0;

  constructor(
    items: { id: string; text: string }[],
    private k1 = 1.2,
    private b = 0.75,
  ) {
    for (const it of items) {
      const toks = tokenize(it.text);
      const tf = new Map<string, number>();
      for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.docs.push({ id: it.id, tf, len: toks.length });
    }
    this.avgLen = this.docs.reduce((a, d) => a + d.len, 0) / Math.max(1, this.docs.length);
  }

  search(query: string, k: number): string[] {
    const terms = [...new Set(tokenize(query))];
    const N = this.docs.length;
    const scored = this.docs.map((d) => {
      let s = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        s += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * d.len) / this.avgLen));
      }
      return { id: d.id, s };
    });
    return scored
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, k)
      .map((x) => x.id);
  }
}
