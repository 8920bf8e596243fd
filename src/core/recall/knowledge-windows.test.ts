import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../knowledge/chunk';
import { keyedChunks } from '../knowledge/keyed-chunks';
import { replaceSource } from '../knowledge/store';
import { makeEmbedFixture, storedVector, type EmbedFixture } from '../testing/embed-fixture';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { waitForJobs } from '../testing/wait-jobs';
import { recall } from './recall';
import { skipWithoutVectors } from '../testing/server';

// The fake embedder is a hashed bag of words: a question is close to a text in
// proportion to the words they share, diluted by every other word of the text.
// That is enough to show what sentence windows change for a long chunk.

const QUESTION = 'Who feeds seventeen harbour cats near a lighthouse?';
const ANSWER = 'The lighthouse keeper feeds the seventeen harbour cats every morning at dawn.';

/** Long sentences about the budget, with none of the question's words: each is a window of its own. */
const filler = (i: number) =>
  `Quarterly budget review number ${i} covers invoices, payroll, pensions, travel claims, office leases, ` +
  `software licences, insurance premiums, audit fees, bank charges, depreciation schedules and every tax filing ` +
  `that finance department ${i} submitted during its fiscal year.`;

/** A chunk that uses every word of the question, but spread over sentences about other things. */
const NEAR_MISS = [
  'The lighthouse stands on the northern cliff, built of grey granite blocks quarried inland and hauled up by oxen over two long summers.',
  'A farmer in the valley feeds his goats and chickens at noon before walking down to the market square with baskets of eggs.',
  'Seventeen fishing boats leave the harbour before sunrise, and their crews mend nets on the quay during the long winter evenings.',
  'Cats sleep on warm slate roofs in every village along this coast, chasing pigeons and gulls whenever the fish market opens.',
  'Tourists pay a small fee in summer that the town council spends on repairing the old footpaths and the public library roof.',
].join(' ');

let fx: EmbedFixture;
beforeAll(async () => {
  fx = await makeEmbedFixture({}, 256);
  const ctx = fx.core.ctx;
  const buried = [...Array.from({ length: 5 }, (_, i) => filler(i)), ANSWER, ...Array.from({ length: 4 }, (_, i) => filler(i + 5))].join(' ');
  for (const [name, text] of [
    ['finance-and-keeper.md', buried],
    ['coastal-notes.md', NEAR_MISS],
  ] as const) {
    await replaceSource(ctx, { persona: 'main', source: name, chunks: keyedChunks(chunkDocument([{ text }]), name) });
  }
  await waitForJobs(fx.core, 'embeddings', 120_000);
}, 180_000);
afterAll(async () => {
  await fx?.dispose();
});

describe('knowledge recall with sentence windows', () => {
  it('ranks first the chunk whose one answering sentence is buried in unrelated text, and points at that sentence', async (t) => {
    skipWithoutVectors(t, fx.core.ctx.db);
    const hits = await recall(fx.core.ctx, { persona: 'main', query: QUESTION, kinds: ['knowledge'], limit: 5 });
    expect(hits.map((h) => h.source)).toEqual(['finance-and-keeper.md', 'coastal-notes.md']);
    const top = hits[0]!;
    const shown = top.content.slice(top.match!.start, top.match!.end);
    expect(shown).toContain(ANSWER);
    expect(shown.length).toBeLessThan(400);

    // The whole chunk, as one vector, is further from the question than the near miss: the window made the difference.
    const q = fakeVector(QUESTION, 256);
    const wholeChunk = async (source: string) => {
      const { rows } = await fx.core.ctx.db.query<{ id: string }>('SELECT id FROM knowledge_chunks WHERE source = $1', [source]);
      const v = (await storedVector(fx.core, 'knowledge_chunks', rows[0]!.id, 256))!.vector;
      return v.reduce((s, x, i) => s + x * q[i]!, 0);
    };
    // Scored with whole-chunk vectors (the same formula), the near miss would come first.
    const wholeScore = async (h: (typeof hits)[number]) => 0.4 * h.score.text + 0.6 * (await wholeChunk(h.source!));
    expect(await wholeScore(hits[1]!)).toBeGreaterThan(await wholeScore(top));
    // With windows, the buried sentence is close to the question, the near miss's sentences are not.
    expect(top.score.cosine).toBeGreaterThan(hits[1]!.score.cosine! + 0.1);
  });

  it('without a query vector ranks by text alone and still returns the chunks', async () => {
    const hits = await recall(fx.core.ctx, { persona: 'main', query: QUESTION, kinds: ['knowledge'], limit: 5, queryEmbedding: null });
    expect(hits).toHaveLength(2);
    for (const h of hits) expect(h.score.cosine).toBeNull();
  });

  it('deletes a source’s windows with it', async () => {
    await fx.core.call('knowledge.deleteSource', { persona: 'main', source: 'coastal-notes.md' });
    const { rows } = await fx.core.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM knowledge_windows w LEFT JOIN knowledge_chunks c ON c.id = w.chunk_id WHERE c.id IS NULL`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
