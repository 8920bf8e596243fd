import { afterEach, describe, expect, it } from 'vitest';
import { recall } from '../recall/recall';
import { type EmbedFixture, makeEmbedFixture } from '../testing/embed-fixture';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { waitForJobs } from '../testing/wait-jobs';

let fx: EmbedFixture | null = null;
afterEach(async () => {
  await fx?.dispose();
  fx = null;
});

describe('embedding a recall query', () => {
  it('returns the vector from the current provider', async () => {
    // A generous timeout: this is about where the vector comes from, not about how fast.
    fx = await makeEmbedFixture({ embeddings: { queryTimeoutMs: 15_000 } });
    const v = await fx.core.ctx.embedder.embedQuery('tea or coffee', 'no-persona');
    expect(Array.from(v!)).toEqual(Array.from(fakeVector('tea or coffee', 16)));
    // recall called without a vector (as the chat's tool and every door do) embeds its query itself.
    await fx.core.call('memories.write', { persona: 'main', content: 'Drinks green tea every afternoon.' });
    await waitForJobs(fx.core);
    const [hit] = await recall(fx.core.ctx, { persona: 'main', query: 'green tea', limit: 1 });
    expect(hit?.content).toBe('Drinks green tea every afternoon.');
    expect(hit?.score.cosine).not.toBeNull();
    const [textOnly] = await recall(fx.core.ctx, { persona: 'main', query: 'green tea', limit: 1, queryEmbedding: null });
    expect(textOnly?.score.cosine).toBeNull();
  });

  it('gives up quickly and returns null when the provider hangs or fails, so recall can go text-only', async () => {
    fx = await makeEmbedFixture({ embeddings: { queryTimeoutMs: 300 } });
    fx.fake.push({ hang: true });
    const t0 = performance.now();
    expect(await fx.core.ctx.embedder.embedQuery('tea or coffee', 'no-persona')).toBeNull();
    expect(performance.now() - t0).toBeLessThan(3_000);
    fx.fake.failNext(1, 500);
    expect(await fx.core.ctx.embedder.embedQuery('tea or coffee', 'no-persona')).toBeNull();
    fx.fake.push({ wrongDimension: 3 });
    expect(await fx.core.ctx.embedder.embedQuery('tea or coffee', 'no-persona')).toBeNull();
    // and recall still answers, by text
    await fx.core.call('memories.write', { persona: 'main', content: 'Drinks green tea every afternoon.' });
    await waitForJobs(fx.core); // embedded: only the query itself will meet the hang
    fx.fake.push({ hang: true });
    const hits = await fx.core.call('recall', { persona: 'main', query: 'green tea', limit: 3 });
    expect(hits[0]?.content).toBe('Drinks green tea every afternoon.');
    expect(hits[0]?.score.cosine).toBeNull();
  });
});
