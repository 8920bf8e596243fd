// Embedding many texts in batches of similar length. A batch is padded to its
// longest text, so a batch mixing a 30-token sentence window with a 128-token
// one pays for 128 twice. Sorting by length first wastes almost nothing and
// leaves each text's vector as it was (the padding is masked); the vectors go
// back in the callers' order. Measured on docs-dev's windows with the built-in
// model: ~26 % less model time (docs/ranking.md, "Sentence windows").

/** Indices of `texts`, shortest first (length in UTF-16 units: close enough to tokens to group by). */
export function lengthOrder(texts: string[]): number[] {
  return texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
}

/**
 * Embeds `texts` in batches of at most `maxBatch`, grouped by length;
 * `onBatch(done)` after each. Returns one vector per text, in `texts`' order.
 */
export async function embedByLength(
  texts: string[],
  maxBatch: number,
  embed: (batch: string[]) => Promise<Float32Array[]>,
  onBatch?: (done: number) => Promise<void> | void,
): Promise<Float32Array[]> {
  const order = lengthOrder(texts);
  const out: Float32Array[] = new Array(texts.length);
  for (let i = 0; i < order.length; i += maxBatch) {
    const idx = order.slice(i, i + maxBatch);
    const vectors = await embed(idx.map((j) => texts[j]!));
    if (vectors.length !== idx.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${idx.length} texts`);
    idx.forEach((j, k) => (out[j] = vectors[k]!));
    await onBatch?.(Math.min(i + maxBatch, order.length));
  }
  return out;
}
