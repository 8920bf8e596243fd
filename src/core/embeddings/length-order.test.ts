import { afterAll, describe, expect, it } from 'vitest';
import { LocalEmbedder } from '../providers/embeddings/local';
import { embedByLength, lengthOrder } from './length-order';

const embedder = new LocalEmbedder();
afterAll(async () => {
  await embedder.close();
});

const cos = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

describe('embedding grouped by length', () => {
  it('orders texts shortest first, ties by position', () => {
    expect(lengthOrder(['ccc', 'a', 'bb', 'd'])).toEqual([1, 3, 2, 0]);
  });

  it('gives every text the vector it gets alone, in the order asked, with the built-in model', async () => {
    // Long and short texts interleaved: grouping reorders them; each row must still get its own vector.
    const texts = [
      'Replication slots keep write-ahead log segments until every standby has received them, so a standby that falls far behind can fill the primary disk.',
      'Coffee.',
      'The planner estimates row counts from statistics gathered by ANALYZE.',
      'A trigger runs a function before or after each row changes.',
      'Tea.',
    ];
    const batches: string[][] = [];
    const grouped = await embedByLength(texts, 2, (b) => (batches.push(b), embedder.embed(b)));
    // Batches went shortest first.
    expect(batches[0]).toEqual(['Tea.', 'Coffee.']);
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await embedder.embed([texts[i]!]);
      expect(cos(grouped[i]!, alone!)).toBeGreaterThan(0.9999);
    }
  }, 180_000);
});
