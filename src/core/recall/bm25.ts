// BM25 text relevance computed from a row's stored tsvector, with the IDF of
// each query lexeme read once per query from the pg_textsearch index. Equal to
// the index's own `content <@> query` score (its indexes use b = 0, so a row's
// length does not enter), at a fraction of its per-row cost: the operator
// costs ~50–200 µs a row inside PGlite, reading a filtered tsvector ~1 µs.

/** pg_textsearch's k1 (its default; our indexes set only b). */
const K1 = 1.2;

/** BM25's term-frequency saturation with b = 0. */
function saturate(tf: number): number {
  return (tf * (K1 + 1)) / (tf + K1);
}

/** One query token as the database sees it: the lexemes it yields alone, their counts, and its BM25 score against itself. */
export interface TokenScore {
  lexemes: string[];
  counts: number[];
  score: number;
}

/**
 * The IDF of every query lexeme. A word's score as a one-word document is its
 * lexeme's IDF; a hyphenated word, URL or path yields several lexemes (the
 * whole and its parts, which the parser also lists as tokens), so lexemes are
 * solved one at a time from tokens with a single unknown left.
 */
export function solveIdf(tokens: readonly TokenScore[]): Map<string, number> {
  const idf = new Map<string, number>();
  let progress = true;
  while (progress) {
    progress = false;
    for (const t of tokens) {
      const unknown = t.lexemes.filter((l) => !idf.has(l));
      if (unknown.length !== 1) continue;
      const u = unknown[0]!;
      let known = 0;
      let uCount = 1;
      t.lexemes.forEach((l, i) => {
        if (l === u) uCount = t.counts[i] ?? 1;
        else known += (idf.get(l) ?? 0) * saturate(t.counts[i] ?? 1);
      });
      idf.set(u, Math.max(0, (t.score - known) / saturate(uCount)));
      progress = true;
    }
  }
  // No token isolates these (never seen with the English parser): they count for nothing rather than guessed.
  for (const t of tokens) for (const l of t.lexemes) if (!idf.has(l)) idf.set(l, 0);
  return idf;
}

/**
 * BM25 of one row from its content tsvector in Postgres text form
 * (`'lexeme':1B,7B 'other':3B`; quotes and backslashes inside a lexeme are
 * doubled). Only lexemes of the query are looked at.
 */
export function bm25FromTsvector(tsv: string | null, idf: ReadonlyMap<string, number>): number {
  if (!tsv) return 0;
  let score = 0;
  let i = 0;
  const n = tsv.length;
  while (i < n) {
    if (tsv[i] !== "'") {
      i++;
      continue;
    }
    let lexeme = '';
    i++;
    while (i < n) {
      const c = tsv[i]!;
      if ((c === "'" && tsv[i + 1] === "'") || c === '\\') {
        lexeme += tsv[i + 1] ?? '';
        i += 2;
      } else if (c === "'") {
        i++;
        break;
      } else {
        lexeme += c;
        i++;
      }
    }
    let count = 1;
    if (tsv[i] === ':') {
      while (i < n && tsv[i] !== ' ') if (tsv[i++] === ',') count++;
    }
    const w = idf.get(lexeme);
    if (w) score += w * saturate(count);
  }
  return score;
}
