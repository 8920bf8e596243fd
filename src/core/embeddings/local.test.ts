import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
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
    const v = await core.ctx.embedder.embedQuery(QUESTION);
    expect(v).toBeInstanceOf(Float32Array);
    expect(v!.length).toBe(512);
  });
});
