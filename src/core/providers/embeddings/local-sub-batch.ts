// How much of a big request one message to the worker carries: a recall query
// asked meanwhile (urgent) waits for at most this one message. The built-in
// model reads about the first 128 tokens of a text and pads every text of a
// message to the longest one, so a message costs about
//   (texts in it) × min(longest text, what the model reads),
// not its characters: a 370-character knowledge window costs nearly what a
// 3,000-character chunk does, and batching them saves nothing (measured per
// text, 1 to 15 texts a message: docs/memory-model.md, "The built-in model's cost").

/** Characters of a text the model reads at most (~128 tokens of prose). */
export const MODEL_READS_CHARS = 400;
/** A message's cost budget: two full-length texts (~0.1–0.25 s on one core). */
export const SUB_BATCH_COST = 2 * MODEL_READS_CHARS;

/** The model work of `count` texts padded to `longest` characters. */
export function messageCost(count: number, longest: number): number {
  return count * Math.min(longest, MODEL_READS_CHARS);
}

/** The next texts to send: at least one, then as many as fit in the cost budget. */
export function nextSubBatch(texts: string[], from: number, budget = SUB_BATCH_COST): number {
  let n = 1;
  let longest = texts[from]?.length ?? 0;
  while (from + n < texts.length) {
    const wider = Math.max(longest, texts[from + n]!.length);
    if (messageCost(n + 1, wider) > budget) break;
    longest = wider;
    n++;
  }
  return n;
}
