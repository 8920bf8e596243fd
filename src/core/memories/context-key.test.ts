import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { type EmbedFixture, makeEmbedFixture, storedVector } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';
import { dayInWords, memoryKey } from './context-key';
import { importMemories } from './import';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('contextual keys of memories', () => {
  it('puts the day in words, the category and the previous memory of the stream before the content', () => {
    expect(dayInWords('2023-05-08')).toBe('8 May 2023');
    expect(memoryKey({ content: 'She said yes!', day: '2023-05-08', category: 'family', previous: 'I asked Ana to marry me.', standalone: false })).toBe(
      '8 May 2023 · family\nI asked Ana to marry me.\nShe said yes!',
    );
    expect(memoryKey({ content: 'First of the day.', day: '2023-05-08', category: null, previous: null, standalone: false })).toBe('8 May 2023\nFirst of the day.');
    // Written by hand: no stream, no context.
    expect(memoryKey({ content: 'Allergic to peanuts.', day: '2023-05-08', category: 'health', previous: 'x', standalone: true })).toBe('Allergic to peanuts.');
    const long = 'a'.repeat(1000);
    expect(memoryKey({ content: 'c', day: '2023-05-08', category: null, previous: long, standalone: false }).length).toBeLessThan(400);
  });
});

describe('the embedding job embeds memories by their keys', () => {
  let fx: EmbedFixture;
  beforeAll(async () => {
    fx = await makeEmbedFixture();
  }, 120_000);
  afterAll(async () => {
    await fx?.dispose();
  });

  it('an imported stream is embedded with its context; a hand-written memory and every shown text stay the content', async () => {
    const ctx = fx.core.ctx;
    const imported = await importMemories(ctx, 'main', [
      { content: 'I asked Ana to marry me.', day: '2024-02-14' },
      { content: 'She said yes!', day: '2024-02-14' },
      { content: 'Booked the venue.', day: '2024-03-01' },
    ]);
    const manual = await fx.core.call('memories.write', { persona: 'main', content: 'She said yes to the dress.' });
    const jobs = await waitForJobs(fx.core, 'embeddings', 120_000);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    const sent = fx.fake.requests.flatMap((r) => (Array.isArray(r.input) ? r.input : [r.input]));
    const [ask, yes, venue] = imported.ids;
    const expected = {
      [ask!]: '14 February 2024\nI asked Ana to marry me.',
      [yes!]: '14 February 2024\nI asked Ana to marry me.\nShe said yes!',
      // Another day: a new stretch of the stream, nothing before it.
      [venue!]: '1 March 2024\nBooked the venue.',
      [manual.id]: 'She said yes to the dress.',
    };
    for (const [id, key] of Object.entries(expected)) {
      expect(sent).toContain(key);
      const stored = await storedVector(fx.core, 'memories', id, 16);
      expect(Array.from(stored!.vector)).toEqual(Array.from(fakeVector(key, 16)));
    }
    const got = await fx.core.call('memories.get', { id: yes! });
    expect(got.content).toBe('She said yes!');
    expect(got.embeddingStatus).toBe('current');
    // Asked about the proposal, the reply that only makes sense after it is closer by meaning than its words alone are.
    const hits = await fx.core.call('recall', { persona: 'main', query: 'marry Ana', limit: 10, kinds: ['memory'] });
    const reply = hits.find((h) => h.id === yes)!;
    expect(reply.content).toBe('She said yes!');
    expect(reply.score.cosine!).toBeGreaterThan(dot(fakeVector('marry Ana', 16), fakeVector('She said yes!', 16)) + 0.1);
  });
});
