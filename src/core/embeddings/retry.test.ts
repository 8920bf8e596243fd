import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/api';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { type EmbedFixture, makeEmbedFixture, storedVector } from '../testing/embed-fixture';
import { waitForJobs, waitForJobState } from '../testing/wait-jobs';
import { enqueueEmbeddings } from './enqueue';

let fx: EmbedFixture | null = null;
afterEach(async () => {
  await fx?.dispose();
  fx = null;
});

function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i]! * b[i]!;
  return d / (Math.hypot(...a) * Math.hypot(...b));
}

/** Records every state a job goes through, with the time it was seen. */
function recordJob(fx: EmbedFixture): { t: number; job: Job }[] {
  const seen: { t: number; job: Job }[] = [];
  fx.core.events.subscribe((name, payload) => {
    if (name === 'jobs.changed') seen.push({ t: performance.now(), job: (payload as { job: Job }).job });
  });
  return seen;
}

describe('embedding jobs: retries and failures', () => {
  it('retries a failing provider with growing backoff until the row gets its vector', async () => {
    const base = 100;
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: base, pollMs: 1000 } });
    const seen = recordJob(fx);
    fx.fake.failNext(3);
    const m = await fx.core.call('memories.write', { persona: 'main', content: 'The user walks the dog at dawn.' });

    const [job] = await waitForJobs(fx.core);
    expect(job!.state).toBe('completed');
    expect(job!.attempt).toBe(4);
    expect(job!.errors.map((e) => e.attempt)).toEqual([1, 2, 3]);
    for (const e of job!.errors) expect(e.error).toMatch(/provider_error: .*HTTP 500/);
    expect(fx.fake.requests).toHaveLength(4);

    const got = await fx.core.call('memories.get', { id: m.id });
    expect(got.embeddingStatus).toBe('current');
    const stored = await storedVector(fx.core, 'memories', m.id, 16);
    expect(cosine(stored!.vector, fakeVector(m.content, 16))).toBeCloseTo(1, 5);
    expect(stored!.padding.every((x) => x === 0)).toBe(true);

    // The timeline. A retry never starts before failure time + base·2^(n−1) less the 25 % jitter;
    // failures are timed by the database (the same clock that sets run_at), starts by the events.
    const mine = seen.filter((s) => s.job.id === job!.id);
    const wall = (t: number) => performance.timeOrigin + t;
    const t0 = wall(mine[0]!.t);
    const failedAt = job!.errors.map((e) => Date.parse(e.at));
    const startedAt = mine.filter((s) => s.job.state === 'running').map((s) => wall(s.t));
    const lines = mine.map((s) => `  +${(wall(s.t) - t0).toFixed(0).padStart(5)} ms  attempt ${s.job.attempt}  ${s.job.state}`);
    const waits = failedAt.map((f, i) => `  wait before attempt ${i + 2}: ${(startedAt[i + 1]! - f).toFixed(0)} ms (backoff ≥ ${0.75 * base * 2 ** i} ms)`);
    console.log(`retry/backoff timeline (base ${base} ms):\n${lines.join('\n')}\n${waits.join('\n')}`);
    expect(startedAt).toHaveLength(4);
    failedAt.forEach((f, i) => expect(startedAt[i + 1]! - f).toBeGreaterThanOrEqual(0.75 * base * 2 ** i - 2));
  });

  it('discards after 6 failed attempts, keeps the error, marks the memory failed; a manual retry recovers', async () => {
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 5, pollMs: 1000 } });
    fx.fake.failNext(6, 503);
    const m = await fx.core.call('memories.write', { persona: 'main', content: 'Gym on Tuesdays and Thursdays.' });
    const [job] = await waitForJobs(fx.core);
    expect(job!.state).toBe('discarded');
    expect(job!.attempt).toBe(6);
    expect(job!.errors).toHaveLength(6);
    expect(job!.lastError).toMatch(/HTTP 503/);
    const failed = await fx.core.call('memories.get', { id: m.id });
    expect(failed.embeddingStatus).toBe('failed');
    expect(failed.embeddingError).toMatch(/HTTP 503/);
    expect(await storedVector(fx.core, 'memories', m.id, 16)).toBeNull();
    const summary = await fx.core.call('jobs.list', { state: 'discarded' });
    expect(summary.counts.discarded).toBe(1);
    expect(summary.embeddingBacklog).toBe(1);

    const retried = await fx.core.call('jobs.retry', { id: job!.id });
    expect(retried.state).toBe('available');
    const [done] = await waitForJobs(fx.core);
    expect(done!.state).toBe('completed');
    const ok = await fx.core.call('memories.get', { id: m.id });
    expect(ok.embeddingStatus).toBe('current');
    expect(ok.embeddingError).toBeNull();
    expect((await fx.core.call('jobs.list', {})).embeddingBacklog).toBe(0);
    await expect(fx.core.call('jobs.retry', { id: job!.id })).rejects.toMatchObject({ code: 'conflict' });
    await expect(fx.core.call('jobs.retry', { id: '999999' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rejects a vector of the wrong size or a missing vector, and stores nothing', async () => {
    // Long backoff: the failed job stays visible as retryable.
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 60_000, pollMs: 1000 } });
    fx.fake.push({ wrongDimension: 8 });
    const a = await fx.core.call('memories.write', { persona: 'main', content: 'Allergic to peanuts.' });
    const [jobA] = (await fx.core.call('jobs.list', { queue: 'embeddings' })).jobs;
    const failed = await waitForJobState(fx.core, jobA!.id, 'retryable');
    expect(failed.lastError).toMatch(/^embedding_dimension: .*8 dimensions.*declared size is 16/);
    expect(await storedVector(fx.core, 'memories', a.id, 16)).toBeNull();
    expect((await fx.core.call('memories.get', { id: a.id })).embeddingStatus).toBe('pending');

    fx.fake.push({ wrongCount: true });
    const b = await fx.core.call('memories.write', { persona: 'main', content: 'Prefers trains to planes.' });
    const jobB = (await fx.core.call('jobs.list', { queue: 'embeddings' })).jobs[0]!;
    expect(jobB.id).not.toBe(jobA!.id);
    const failedB = await waitForJobState(fx.core, jobB.id, 'retryable');
    expect(failedB.lastError).toMatch(/^embedding_dimension: .*returned 0 vectors for 1 texts/);
    expect(await storedVector(fx.core, 'memories', b.id, 16)).toBeNull();

    // Once the provider behaves, the same jobs succeed.
    await fx.core.call('jobs.retry', { id: jobA!.id });
    await fx.core.call('jobs.retry', { id: jobB.id });
    await waitForJobs(fx.core);
    expect((await storedVector(fx.core, 'memories', a.id, 16))?.model).toBe(fx.core.ctx.embedder.model());
    expect((await storedVector(fx.core, 'memories', b.id, 16))?.model).toBe(fx.core.ctx.embedder.model());
  });

  it('writes nothing when a later batch of a job fails, and reports progress per batch', async () => {
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 60_000, pollMs: 1000 } });
    const seen = recordJob(fx);
    const { db } = fx.core.ctx;
    const ids = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO knowledge_chunks (persona, source, chunk_index, content)
         SELECT 'main', 'notes.md', i, 'chunk number ' || i || ' about gardening and tomatoes'
         FROM generate_series(0, 39) AS i RETURNING id`,
      );
      const list = rows.map((r) => r.id);
      await enqueueEmbeddings(tx, 'main', 'knowledge', list);
      return list;
    });
    // The first request (32 texts, the batch size) passes; the second fails.
    void fx.fake.nextRequest().then(() => fx!.fake.failNext(1));
    fx.core.ctx.wakeJobs();
    const jobId = (await fx.core.call('jobs.list', {})).jobs[0]!.id;
    const failed = await waitForJobState(fx.core, jobId, 'retryable');
    expect(failed.lastError).toMatch(/HTTP 500/);
    expect(fx.fake.requests.map((r) => (r.input as string[]).length)).toEqual([32, 8]);
    const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM knowledge_chunks WHERE embedding IS NOT NULL');
    expect(Number(rows[0]!.n)).toBe(0);
    expect(seen.some((s) => s.job.progress?.stage === 'embedding' && s.job.progress.done === 32 && s.job.progress.total === 40)).toBe(true);

    const changed: string[] = [];
    fx.core.events.subscribe((name, p) => {
      if (name === 'knowledge.changed') changed.push((p as { source: string }).source);
    });
    await fx.core.call('jobs.retry', { id: jobId });
    await waitForJobs(fx.core);
    const { rows: after } = await db.query<{ n: number }>(
      'SELECT count(*) AS n FROM knowledge_chunks WHERE embedding IS NOT NULL AND embedding_model = $1',
      [fx.core.ctx.embedder.model()],
    );
    expect(Number(after[0]!.n)).toBe(ids.length);
    expect(changed).toEqual(['notes.md']);
  });

  it('never stores a vector for content that was edited while it was being embedded', async () => {
    fx = await makeEmbedFixture({ jobs: { backoffBaseMs: 20, pollMs: 1000 } });
    let release!: () => void;
    fx.fake.push({ gate: new Promise<void>((r) => (release = r)) });
    const m = await fx.core.call('memories.write', { persona: 'main', content: 'Favourite colour is green.' });
    await fx.fake.nextRequest();
    // The edit lands while 'green' is being embedded; then the provider answers.
    await fx.core.call('memories.update', { id: m.id, content: 'Favourite colour is blue.' });
    release();
    const jobs = await waitForJobs(fx.core);
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(fx.fake.requests.map((r) => r.input)).toEqual([['Favourite colour is green.'], ['Favourite colour is blue.']]);
    const stored = await storedVector(fx.core, 'memories', m.id, 16);
    expect(cosine(stored!.vector, fakeVector('Favourite colour is blue.', 16))).toBeCloseTo(1, 5);
  });
});
