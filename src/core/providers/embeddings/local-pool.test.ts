import { readdirSync, readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { LocalEmbedder } from './local';
import { LocalModelPool } from './local-pool';

// Two model threads, as on a machine with two cores or more (local-pool.ts).
// Every wait on the threads is an awaited point (an answer counted per thread),
// never a sleep.

function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i]! * b[i]!;
  return d / (Math.hypot(...a) * Math.hypot(...b));
}

// ~3000-character chunks, as documents are cut: two a sub-batch, each sub-batch a long call.
const chunk = (doc: string, i: number) =>
  Array.from({ length: 45 }, (_, j) => `The ${doc} keeper ${i} logged ship ${j} passing the point at dawn.`).join(' ').slice(0, 3000);
const doc = (name: string, n: number) => Array.from({ length: n }, (_, i) => chunk(name, i));

const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 60_000, interval: 10 });

let pool: LocalModelPool;
const embedders: LocalEmbedder[] = [];
function embedder(): LocalEmbedder {
  const e = new LocalEmbedder(pool);
  embedders.push(e);
  return e;
}
afterEach(async () => {
  for (const e of embedders.splice(0)) await e.close();
});

/** Starts both threads and waits until the model is loaded in each. */
async function warmBoth(e: LocalEmbedder): Promise<void> {
  // Three sub-batches: the first thread has one computing and one waiting, so the third starts the spare.
  await e.embed(doc('warm-up', 6));
  expect(pool.answeredByThread().every((n) => n > 0)).toBe(true);
}

describe('two model threads', () => {
  // Both threads loaded once for the first two tests (the second ends with one of them crashed and started again).
  beforeAll(() => void (pool = new LocalModelPool(2)));
  afterAll(() => pool.stop());

  it('spread batch work over both threads and answer a query asked while both compute before the waiting batch work', async () => {
    const e = embedder();
    await warmBoth(e);
    const texts = doc('harbour', 24);
    const before = pool.answeredByThread();
    const answers: string[] = [];
    const run = pool.run.bind(pool);
    pool.run = (t, urgent) => run(t, urgent).then((res) => (answers.push(urgent ? 'query' : 'batch'), res));
    onTestFinished(() => void (pool.run = run));
    let batchDone = false;
    const batch = e.embed(texts).then((v) => ((batchDone = true), v));
    // Both threads are computing this document's sub-batches, with more waiting in each line.
    await waitFor(() => expect(pool.answeredByThread().every((n, i) => n > before[i]!)).toBe(true));
    const answeredBefore = answers.length;
    const [q] = await e.embed(['which ship passed the point at dawn?'], { urgent: true });
    expect(batchDone).toBe(false);
    // The query ran after the call in progress on the first thread to finish one: at most one answer
    // from each thread came between it being asked and its answer.
    const between = answers.slice(answeredBefore, answers.indexOf('query'));
    expect(between.length).toBeLessThanOrEqual(2);
    const vectors = await batch;
    expect(q).toHaveLength(512);
    // Every chunk got its own vector, whichever thread computed it.
    expect(vectors).toHaveLength(24);
    for (const i of [0, 17, 23]) {
      const [alone] = await e.embed([texts[i]!]);
      expect(cosine(alone!, vectors[i]!)).toBeGreaterThan(0.999);
      expect(cosine(alone!, vectors[(i + 1) % 24]!)).toBeLessThan(cosine(alone!, vectors[i]!));
    }
    const after = pool.answeredByThread();
    expect(after[0]! - before[0]!).toBeGreaterThan(2);
    expect(after[1]! - before[1]!).toBeGreaterThan(2);
  });

  it('answer a query asked while both threads compute batch work on the query thread, which waits for no batch call', async () => {
    const e = embedder();
    await warmBoth(e);
    // The spare thread's start started the query thread; it takes queries once its model is loaded.
    await waitFor(() => expect(pool.queryThread().loaded).toBe(true));
    const texts = doc('estuary', 24);
    const before = pool.answeredByThread();
    const answers: string[] = [];
    const run = pool.run.bind(pool);
    pool.run = (t, urgent) => run(t, urgent).then((res) => (answers.push(urgent ? 'query' : 'batch'), res));
    onTestFinished(() => void (pool.run = run));
    const batch = e.embed(texts);
    await waitFor(() => expect(pool.answeredByThread().every((n, i) => n > before[i]!)).toBe(true));
    const answeredBefore = answers.length;
    const queriesBefore = pool.queryThread().answered;
    const [q] = await e.embed(['which ship passed the estuary at dawn?'], { urgent: true });
    // The query thread ran it; the batch threads went on with the document meanwhile.
    expect(pool.queryThread().answered).toBe(queriesBefore + 1);
    expect(answers.slice(answeredBefore, answers.indexOf('query')).length).toBeLessThanOrEqual(2);
    const vectors = await batch;
    // The same vector the batch threads give for the same text: which thread computed it does not matter.
    const [again] = await e.embed(['which ship passed the estuary at dawn?']);
    expect(cosine(q!, again!)).toBeGreaterThan(0.999);
    expect(vectors).toHaveLength(24);
    if (process.platform === 'linux') {
      // Two batch threads below the process's priority, and the query thread at it.
      expect(threadNices().filter((n) => n === 10).length).toBeGreaterThanOrEqual(2);
    }
  });

  it.runIf(process.platform === 'linux')('run the model below the priority of the rest of the process (Linux: per thread)', () => {
    // Both model threads are running (the test before loaded them); this thread and the others keep theirs.
    // Test files share a process (vitest's isolate: false), so an earlier file's model threads may still be
    // winding down beside these two: at least these two are lowered, and the core's own threads are not.
    expect(pool.running()).toBe(2);
    const nices = threadNices();
    expect(nices.filter((n) => n === 10).length).toBeGreaterThanOrEqual(2);
    expect(nices.filter((n) => n === 0).length).toBeGreaterThan(0);
  });

  it('a thread that crashes fails the request it held with a clear error, and the next request starts it again', async () => {
    const e = embedder();
    await warmBoth(e);
    const before = pool.answeredByThread();
    const failed = expect(e.embed(doc('mill', 16))).rejects.toMatchObject({
      code: 'provider_error',
      message: expect.stringMatching(/model stopped: worker exited/),
    });
    await waitFor(() => expect(pool.answeredByThread()[1]! - before[1]!).toBeGreaterThan(0));
    // The spare thread dies under its work, as a thread that runs out of memory would.
    const slots = (pool as unknown as { slots: { worker: Worker | null }[] }).slots;
    await slots[1]!.worker!.terminate();
    await failed;
    expect(pool.running()).toBe(1);
    // The first thread kept its model; the next batch starts the second again and both share it.
    expect(e.warm()).toBe(true);
    const again = pool.answeredByThread();
    const texts = doc('mill', 8);
    const vectors = await e.embed(texts);
    expect(vectors).toHaveLength(8);
    expect(pool.running()).toBe(2);
    expect(pool.answeredByThread()[1]! - again[1]!).toBeGreaterThan(0);
    const [alone] = await e.embed([texts[5]!]);
    expect(cosine(alone!, vectors[5]!)).toBeGreaterThan(0.999);
  });

});

/** Nice values of this process's threads (Linux: each thread has its own). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((t) => {
    const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('two model threads, idle', () => {
  afterAll(() => pool.stop());

  it('stop the spare thread when it has nothing to do and every thread once the last embedder closed', async () => {
    pool = new LocalModelPool(2, 300);
    const e = embedder();
    await warmBoth(e);
    // The embedder still holds its lease: the first thread stays loaded, the idle spare stops, and the query thread with it.
    await waitFor(() => expect([pool.running(), pool.queryThread().running]).toEqual([1, false]));
    expect(e.warm()).toBe(true);
    // A short request needs no second thread.
    await e.embed(['one memory']);
    expect(pool.running()).toBe(1);
    await e.close();
    await waitFor(() => expect(pool.running()).toBe(0));
    expect(e.warm()).toBe(false);
  });
});
