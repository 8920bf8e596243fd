import { afterEach, describe, expect, it } from 'vitest';
import { type EmbedFixture, makeEmbedFixture } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';

let fx: EmbedFixture | null = null;
afterEach(async () => {
  await fx?.dispose();
  fx = null;
});

const TEXTS = ['Lives in Lisbon.', 'Works as a nurse on night shifts.', 'Learning the cello.'];

async function statuses(fx: EmbedFixture) {
  const page = await fx.core.call('memories.list', { persona: 'main' });
  return Object.fromEntries(page.items.map((m) => [m.content, `${m.embeddingStatus} ${m.embeddingModel}`]));
}

describe('provider switch and backfill', () => {
  it('switching the model marks old vectors stale and re-embeds every row with the new one', async () => {
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 10, pollMs: 200 } });
    for (const content of TEXTS) await fx.core.call('memories.write', { persona: 'main', content });
    await waitForJobs(fx.core);
    const modelA = fx.core.ctx.embedder.model();
    expect(modelA).toMatch(/^compatible:fake-embed@127\.0\.0\.1:\d+\/16$/);
    expect(Object.values(await statuses(fx))).toEqual(TEXTS.map(() => `current ${modelA}`));

    // Hold the backfill's request so the stale state can be seen.
    let release!: () => void;
    fx.fake.push({ gate: new Promise<void>((r) => (release = r)) });
    fx.fake.dimensions = 24;
    fx.fake.requests.length = 0;
    const view = await fx.core.call('settings.set', { embeddings: { provider: 'compatible', model: 'fake-embed-2', dimensions: 24 } });
    expect(view.embeddings).toMatchObject({ provider: 'compatible', model: 'fake-embed-2', dimensions: 24, baseUrl: fx.server.baseURL });
    const modelB = fx.core.ctx.embedder.model();
    expect(modelB).not.toBe(modelA);
    expect(Object.values(await statuses(fx))).toEqual(TEXTS.map(() => `stale ${modelA}`));
    expect((await fx.core.call('jobs.list', {})).embeddingBacklog).toBe(3);
    release();
    await waitForJobs(fx.core);
    expect(Object.values(await statuses(fx))).toEqual(TEXTS.map(() => `current ${modelB}`));
    expect(fx.fake.requests.flatMap((r) => r.input).sort()).toEqual([...TEXTS].sort());
    expect(fx.fake.requests.every((r) => r.model === 'fake-embed-2')).toBe(true);
    expect((await fx.core.call('jobs.list', {})).embeddingBacklog).toBe(0);
  });

  it('backfill enqueues exactly the rows lacking a current vector, once', async () => {
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 10, pollMs: 200 } });
    const ids: string[] = [];
    for (const content of TEXTS) ids.push((await fx.core.call('memories.write', { persona: 'main', content })).id);
    await fx.core.call('personas.create', { name: 'trader' });
    await fx.core.call('memories.write', { persona: 'trader', content: 'Watches oil futures.' });
    await waitForJobs(fx.core);
    expect(await fx.core.call('embeddings.backfill', {})).toEqual({ enqueued: 0 });

    // Two rows of main lose their current vector (embedded by another model, or never).
    await fx.core.ctx.db.query(`UPDATE memories SET embedding_model = 'openai:old-model' WHERE id = $1`, [ids[0]]);
    await fx.core.ctx.db.query(`UPDATE memories SET embedding = NULL, embedding_model = NULL WHERE id = $1`, [ids[2]]);
    fx.fake.requests.length = 0;
    let release!: () => void;
    fx.fake.push({ gate: new Promise<void>((r) => (release = r)) });
    expect(await fx.core.call('embeddings.backfill', { persona: 'trader' })).toEqual({ enqueued: 0 });
    expect(await fx.core.call('embeddings.backfill', { persona: 'main' })).toEqual({ enqueued: 2 });
    // Already queued (waiting or running): not enqueued twice.
    expect(await fx.core.call('embeddings.backfill', {})).toEqual({ enqueued: 0 });
    release();
    await waitForJobs(fx.core);
    expect(fx.fake.requests.map((r) => r.input)).toEqual([[TEXTS[0], TEXTS[2]]]);
    expect(Object.values(await statuses(fx)).every((s) => s.startsWith('current'))).toBe(true);
    await expect(fx.core.call('embeddings.backfill', { persona: 'nobody' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('OpenAI without a key fails clearly; setting the key requeues the failed rows', async () => {
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 5, pollMs: 200 } }, 1536);
    await fx.core.call('settings.set', { embeddings: { provider: 'openai', baseUrl: fx.server.baseURL } });
    const m = await fx.core.call('memories.write', { persona: 'main', content: 'Runs a half marathon in October.' });
    const [job] = await waitForJobs(fx.core);
    expect(job).toMatchObject({ state: 'discarded', attempt: 6 });
    expect(job!.lastError).toMatch(/^not_configured: .*API key/);
    expect((await fx.core.call('memories.get', { id: m.id })).embeddingStatus).toBe('failed');
    expect(fx.fake.requests).toHaveLength(0);

    await fx.core.call('settings.set', { embeddings: { provider: 'openai', apiKey: 'sk-later' } });
    await waitForJobs(fx.core);
    const ok = await fx.core.call('memories.get', { id: m.id });
    expect(ok).toMatchObject({ embeddingStatus: 'current', embeddingModel: 'openai:text-embedding-3-small', embeddingError: null });
    expect(fx.server.requests.at(-1)!.authorization).toBe('Bearer sk-later');
  });
});
