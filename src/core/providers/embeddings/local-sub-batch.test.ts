import { describe, expect, it } from 'vitest';
import { MODEL_READS_CHARS, messageCost, nextSubBatch, SUB_BATCH_COST } from './local-sub-batch';

// What a recall query asked during an ingest waits for: one message to the
// model, whose cost is its texts × the longest text the model reads.
const text = (chars: number) => 'w'.repeat(chars);
const messages = (texts: string[]) => {
  const sizes: number[] = [];
  for (let from = 0; from < texts.length; from += sizes.at(-1)!) sizes.push(nextSubBatch(texts, from));
  return sizes;
};

describe('how much of a big embedding request goes to the model at once', () => {
  it('sends knowledge windows two at a time: each costs the model nearly a whole chunk', () => {
    expect(messages(Array.from({ length: 16 }, () => text(370)))).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(messages(Array.from({ length: 5 }, () => text(3000)))).toEqual([2, 2, 1]);
  });

  it('keeps many short memories in one message', () => {
    expect(messages(Array.from({ length: 16 }, () => text(40)))).toEqual([16]);
  });

  it('counts a short text padded to the longest one beside it', () => {
    // 10 short texts fit alone; one long text among them makes each cost the long one.
    const mixed = [...Array.from({ length: 10 }, () => text(40)), text(390), ...Array.from({ length: 4 }, () => text(40))];
    const sizes = messages(mixed);
    expect(sizes.reduce((a, b) => a + b)).toBe(mixed.length);
    let from = 0;
    for (const n of sizes) {
      const longest = Math.max(...mixed.slice(from, from + n).map((t) => t.length));
      expect(n === 1 || messageCost(n, longest) <= SUB_BATCH_COST).toBe(true);
      from += n;
    }
    expect(sizes[0]).toBe(10);
  });

  it('always sends at least one text, however long', () => {
    expect(messages([text(50_000)])).toEqual([1]);
    expect(messageCost(1, 50_000)).toBe(MODEL_READS_CHARS);
  });
});
