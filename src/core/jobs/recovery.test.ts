import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../index';
import { storedVector } from '../testing/embed-fixture';
import { installEmbeddings } from '../testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../testing/fake-openai/server';
import type { TestCore } from '../testing/core';
import { makeTestCore, templateCopy } from '../testing/core';
import { childScript } from '../testing/source-build';
import { waitForJobs } from '../testing/wait-jobs';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fakeServer(): Promise<FakeServer> {
  const server = await startFakeServer();
  cleanups.push(() => server.close());
  return server;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before reporting: ${err}`)));
  });
}

async function vectorCounts(core: Core) {
  const { rows } = await core.ctx.db.query<{ memories: number; vectors: number }>(
    'SELECT count(*) AS memories, count(embedding) AS vectors FROM memories',
  );
  return { memories: Number(rows[0]!.memories), vectors: Number(rows[0]!.vectors) };
}

describe('job recovery', () => {
  it('a job cut off by SIGKILL runs again at the next start: no lost or duplicate vector', async () => {
    const server = await fakeServer();
    const fake = installEmbeddings(server, { dimensions: 16 });
    fake.push({ hang: true }); // the child's request never gets an answer
    // A migrated folder (the test template), so the child skips initdb; what matters is what the kill leaves.
    const dataDir = await templateCopy();
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const child = spawn(process.execPath, [childScript('crash-child'), dataDir, server.baseURL], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    const { memoryId } = JSON.parse(await firstLine(child)) as { memoryId: string };
    await (fake.requests.length ? Promise.resolve() : fake.nextRequest()); // mid-job: the request is in flight
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    // The dead process's lock is taken over; the job it was running goes back in line.
    const core = await createCore({ dataDir, jobs: { pollMs: 100 } });
    cleanups.push(() => core.close());
    const jobs = await waitForJobs(core);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.state).toBe('completed');
    // The stop did not spend an attempt: the rerun is attempt 1 again.
    expect(jobs[0]!.attempt).toBe(1);
    expect(jobs[0]!.errors).toEqual([expect.objectContaining({ attempt: 1, error: expect.stringMatching(/^interrupted: .*stop 1 of 5.*not counted/) })]);
    expect(fake.requests.map((r) => r.input)).toEqual([['The user keeps bees on the roof.'], ['The user keeps bees on the roof.']]);
    expect((await core.call('memories.get', { id: memoryId })).embeddingStatus).toBe('current');
    expect(await vectorCounts(core)).toEqual({ memories: 1, vectors: 1 });
  }, 240_000); // the child creates a fresh database (initdb), slow on a busy machine

  it('closing the core mid-job puts the job back without counting the attempt', async () => {
    const server = await fakeServer();
    const fake = installEmbeddings(server, { dimensions: 16 });
    fake.push({ hang: true });
    let core: TestCore | null = await makeTestCore({ jobs: { pollMs: 100 } });
    const dataDir = core.dataDir;
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 } });
    const m = await core.call('memories.write', { persona: 'main', content: 'Reads before sleeping.' });
    await fake.nextRequest();
    const t0 = performance.now();
    await core.close();
    // The hung request never ends on its own: a close that returns at all aborted it. The bound only
    // keeps a regression from costing the whole test timeout; closing takes up to ~5 s on a loaded machine.
    expect(performance.now() - t0).toBeLessThan(30_000);
    core = null;

    const again = await createCore({ dataDir, jobs: { pollMs: 100 } });
    cleanups.push(() => again.close());
    const [job] = await waitForJobs(again);
    expect(job).toMatchObject({ state: 'completed', attempt: 1, errors: [] });
    expect((await storedVector(again as TestCore, 'memories', m.id, 16))?.model).toBe(again.ctx.embedder.model());
    expect(await vectorCounts(again)).toEqual({ memories: 1, vectors: 1 });
  });

  it('crashes do not use up attempts: a job on its last attempt survives a crash; five crashes give it up with a message', async () => {
    const server = await fakeServer();
    installEmbeddings(server, { dimensions: 16 });
    // A core that serves no queue, so the job stays put while the test arranges what a crash leaves behind.
    const idle = await makeTestCore({ queues: {} });
    const dataDir = idle.dataDir;
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await idle.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 } });
    const a = await idle.call('memories.write', { persona: 'main', content: 'Swims on Tuesdays.' });
    const b = await idle.call('memories.write', { persona: 'main', content: 'Cycles on Thursdays.' });
    const jobOf = async (memoryId: string) =>
      (await idle.ctx.db.query<{ id: string }>(`SELECT id::text AS id FROM jobs WHERE args->'ids' ? $1`, [memoryId])).rows[0]!.id;
    const [ja, jb] = [await jobOf(a.id), await jobOf(b.id)];
    // What a kill leaves: both running; a on its last attempt, b cut off four times already.
    await idle.ctx.db.query(`UPDATE jobs SET state = 'running', attempt = max_attempts WHERE id = $1`, [ja]);
    await idle.ctx.db.query(`UPDATE jobs SET state = 'running', attempt = 1, crashes = 4 WHERE id = $1`, [jb]);
    await idle.close();

    const core = await createCore({ dataDir, jobs: { pollMs: 100 } });
    cleanups.push(() => core.close());
    const jobs = await waitForJobs(core);
    const ra = jobs.find((j) => j.id === ja)!;
    const rb = jobs.find((j) => j.id === jb)!;
    expect(ra.state).toBe('completed');
    expect(ra.attempt).toBe(ra.maxAttempts);
    expect((await core.call('memories.get', { id: a.id })).embeddingStatus).toBe('current');
    expect(rb.state).toBe('discarded');
    expect(rb.lastError).toMatch(/^discarded: Hearth stopped 5 times while this job ran/);
    const { rows } = await core.ctx.db.query<{ crashes: number }>('SELECT crashes FROM jobs WHERE id = $1', [jb]);
    expect(rows[0]!.crashes).toBe(5);

    // A retry by the person starts the count afresh, and the job completes.
    await core.call('jobs.retry', { id: jb });
    const again = (await waitForJobs(core)).find((j) => j.id === jb)!;
    expect(again.state).toBe('completed');
    expect((await core.ctx.db.query<{ crashes: number }>('SELECT crashes FROM jobs WHERE id = $1', [jb])).rows[0]!.crashes).toBe(0);
  }, 180_000);
});
