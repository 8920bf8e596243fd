import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { storedVector } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';

let core: TestCore;
beforeAll(async () => {
  // Default settings: the built-in local model, no network. The query timeout is widened only
  // so a busy test machine cannot turn this check of meaning into a check of speed.
  core = await makeTestCore({ embeddings: { queryTimeoutMs: 10_000 } });
});
afterAll(async () => {
  await core.dispose();
});

const COFFEE = 'The user enjoys quiet mornings with black coffee and jazz.';
// The question shares "user" and "morning" with the coffee memory; these two share exactly
// as much with it, so text relevance cannot tell them apart and only the vector can.
const OTHERS = ["The user's morning commute takes forty minutes by train.", 'The user repaired the printer driver on Monday morning.'];
const QUESTION = 'what does the user like to drink in the morning?';

describe('offline semantic recall with the built-in model', () => {
  it('embeds new memories with the local model and finds the coffee memory by meaning', async () => {
    const ids: Record<string, string> = {};
    for (const content of [COFFEE, ...OTHERS]) ids[content] = (await core.call('memories.write', { persona: 'main', content })).id;
    const jobs = await waitForJobs(core, 'embeddings', 120_000);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    const page = await core.call('memories.list', { persona: 'main' });
    expect(page.items.map((m) => `${m.embeddingStatus} ${m.embeddingModel}`)).toEqual(
      Array(3).fill('current local:use-lite-512'),
    );

    const hits = await core.call('recall', { persona: 'main', query: QUESTION, limit: 3 });
    console.log(`recall "${QUESTION}":\n${hits.map((h) => `  ${h.score.final.toFixed(3)} text=${h.score.text.toFixed(2)} cos=${h.score.cosine?.toFixed(3)}  ${h.content}`).join('\n')}`);
    expect(hits[0]!.content).toBe(COFFEE);
    const coffee = hits[0]!;
    const others = hits.filter((h) => h.content !== COFFEE);
    expect(others).toHaveLength(2);
    // Text alone would not have put it first; the cosine did.
    expect(coffee.score.text).toBeLessThanOrEqual(Math.max(...others.map((h) => h.score.text)) + 1e-9);
    for (const o of others) expect(coffee.score.cosine!).toBeGreaterThan(o.score.cosine!);
  });

  it('embeds a query with the loaded model, and the vectors are 512-d', async () => {
    const v = await core.ctx.embedder.embedQuery(QUESTION, 'no-persona');
    expect(v).toBeInstanceOf(Float32Array);
    expect(v!.length).toBe(512);
  });

  it('two personas open at once embed on one loaded model, each its own memories; closing one leaves the other embedding', async () => {
    // A second data folder open in the same process, as a second persona window or a backup check is.
    const other = await makeTestCore({ embeddings: { queryTimeoutMs: 10_000 } });
    try {
      // Opening it did not mean loading the model again: its first query is served by the loaded one.
      expect(other.ctx.embedder.current('no-persona').warm()).toBe(true);
      const mine = ['The user keeps bees on the roof of the garage.', 'The user is learning the violin on Thursdays.'];
      const theirs = ['The user feeds a sourdough starter named Bob.', 'The user takes the 7:12 train to Leeds.', 'The user moved the dentist to Friday.'];
      const write = (c: TestCore, content: string) => c.call('memories.write', { persona: 'main', content }).then((m) => ({ c, content, id: m.id }));
      const written = await Promise.all([...mine.map((t) => write(core, t)), ...theirs.map((t) => write(other, t))]);
      await Promise.all([waitForJobs(core, 'embeddings', 120_000), waitForJobs(other, 'embeddings', 120_000)]);
      for (const { c, content, id } of written) {
        const stored = await storedVector(c, 'memories', id, 512);
        expect(stored?.model).toBe('local:use-lite-512');
        // Each memory holds its own text's vector, not a neighbour's from the other persona's batch.
        expect(cosine(stored!.vector, (await core.ctx.embedder.embedQuery(content, 'no-persona'))!)).toBeGreaterThan(0.999);
      }
    } finally {
      await other.dispose();
    }
    // The other persona closed: this one still embeds new memories and finds them by meaning.
    const { id } = await core.call('memories.write', { persona: 'main', content: 'The user grows tomatoes in the greenhouse.' });
    await waitForJobs(core, 'embeddings', 120_000);
    expect((await core.call('memories.get', { id })).embeddingStatus).toBe('current');
    const hits = await core.call('recall', { persona: 'main', query: 'which vegetables does the user grow?', limit: 1 });
    expect(hits[0]!.content).toBe('The user grows tomatoes in the greenhouse.');
    expect(hits[0]!.score.cosine).not.toBeNull();
  });
});

function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i]! * b[i]!;
  return d / (Math.hypot(...a) * Math.hypot(...b));
}
