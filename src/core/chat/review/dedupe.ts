// Stored near-duplicates are found by src/core/memories/duplicates.ts; this
// only folds texts within one review's own output.

/** Exact-duplicate key: case, punctuation and spacing do not count. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
