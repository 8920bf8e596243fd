import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/api';
import { makeTestCore, type TestCore } from '../testing/core';
import { waitForJobs } from '../testing/wait-jobs';
import { enqueueJob } from './enqueue';
import type { QueueDefs } from './types';

let core: TestCore | null = null;
afterEach(async () => {
  await core?.dispose();
  core = null;
});

describe('job runner', () => {
  it('runs a queue at most `concurrency` at a time, records progress and pushes every state change', async () => {
    let active = 0;
    let peak = 0;
    const queues: QueueDefs = {
      ingest: {
        concurrency: 2,
        async work(args, jc) {
          active++;
          peak = Math.max(peak, active);
          await jc.progress({ stage: 'parsing', done: 1, total: 2, label: String(args.n) });
          await new Promise((r) => setTimeout(r, 150));
          active--;
        },
      },
    };
    // A long poll: only the wake-up after enqueueing can start the work promptly.
    core = await makeTestCore({ queues, jobs: { pollMs: 60_000 } });
    const seen: Job[] = [];
    core.events.subscribe((name, p) => {
      if (name === 'jobs.changed') seen.push((p as { job: Job }).job);
    });
    const ids: string[] = [];
    await core.ctx.db.transaction(async (tx) => {
      for (let n = 0; n < 5; n++) ids.push(await enqueueJob(tx, { queue: 'ingest', persona: 'main', args: { n } }));
    });
    core.ctx.wakeJobs();
    const jobs = await waitForJobs(core, 'ingest', 20_000);
    expect(jobs.map((j) => j.state)).toEqual(Array(5).fill('completed'));
    expect(peak).toBe(2);
    for (const id of ids) {
      const states = seen.filter((j) => j.id === id).map((j) => `${j.state}${j.progress ? `:${j.progress.stage}` : ''}`);
      expect(states).toEqual(['running', 'running:parsing', 'completed:parsing']);
    }
    expect(jobs[0]!.progress).toEqual({ stage: 'parsing', done: 1, total: 2, label: '0' });
  });

  it('a job enqueued by a write is picked up at once, not at the next poll', async (t) => {
    const ran: number[] = [];
    core = await makeTestCore({
      queues: { embeddings: { concurrency: 1, work: async () => void ran.push(performance.now()) } },
      jobs: { pollMs: 60_000 },
    });
    // The write's job is an embedding; a server without pgvector queues none (src/core/db/text-only.test.ts).
    if (!core.ctx.db.features.vector) return t.skip('text-only server (no pgvector): a write queues no embedding job');
    const t0 = performance.now();
    // memories.write enqueues an embeddings job and emits memories.changed, which wakes the runner.
    await core.call('memories.write', { persona: 'main', content: 'Keeps a paper diary.' });
    const [job] = await waitForJobs(core, 'embeddings', 20_000);
    expect(job!.state).toBe('completed');
    expect(ran[0]! - t0).toBeLessThan(20_000);
  });
});
