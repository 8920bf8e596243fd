/**
 * What one message to the worker carries at most. USE-lite costs ~100 ms per
 * 3000-character chunk however they are batched, so two such chunks (~0.25 s)
 * is as long as a recall query ever waits behind document embedding.
 */
export const SUB_BATCH_CHARS = 6000;

/** The next texts to send: at least one, then as many as fit in the character budget. */
export function nextSubBatch(texts: string[], from: number, budget = SUB_BATCH_CHARS): number {
  let n = 1;
  let chars = texts[from]?.length ?? 0;
  while (from + n < texts.length && chars + texts[from + n]!.length <= budget) chars += texts[from + n++]!.length;
  return n;
}
