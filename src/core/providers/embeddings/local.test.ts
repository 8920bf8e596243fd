import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEmbedder } from './local';
import { LocalModelPool } from './local-pool';

// One model thread of this file's own (a one-core machine's pool): the process's shared one may already be loaded by an earlier file.
let thread: LocalModelPool;
let e: LocalEmbedder;
beforeAll(() => {
  thread = new LocalModelPool(1);
  e = new LocalEmbedder(thread);
});
afterAll(async () => {
  await e.close();
  await thread.stop();
});

function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += a[i]! * b[i]!;
  return d / (Math.hypot(...a) * Math.hypot(...b));
}

describe('the built-in local embedder', () => {
  it('loads lazily in its worker and returns one 512-d vector per text, in order', async () => {
    expect(e.warm()).toBe(false);
    const texts = ['black coffee in the morning', 'a cup of espresso at breakfast', 'the tax return is due in April'];
    const batch = await e.embed(texts);
    expect(e.warm()).toBe(true);
    expect(e.loadMs).toBeGreaterThan(0);
    expect(batch.map((v) => v.length)).toEqual([512, 512, 512]);
    // Same text alone gives the same vector as inside the batch: nothing got shuffled.
    const [alone] = await e.embed([texts[2]!]);
    expect(cosine(alone!, batch[2]!)).toBeGreaterThan(0.999);
    expect(cosine(batch[0]!, batch[1]!)).toBeGreaterThan(cosine(batch[0]!, batch[2]!));
  });

  it('lets an urgent query overtake queued batch work; a cancelled request gets a clear error', async () => {
    const order: string[] = [];
    const batches = [0, 1, 2].map((i) =>
      e.embed(Array.from({ length: 16 }, (_, j) => `background sentence ${i} number ${j}`)).then(() => order.push(`batch ${i}`)),
    );
    const query = e.embed(['urgent question'], { urgent: true }).then(() => order.push('query'));
    const ac = new AbortController();
    const cancelled = e.embed(['never mind'], { signal: ac.signal });
    ac.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
    await Promise.all([...batches, query]);
    // At most batch 0, which may already be computing, goes before the query; the others wait.
    expect(order.indexOf('query')).toBeLessThanOrEqual(1);
    expect(order.filter((x) => x !== 'query')).toEqual(['batch 0', 'batch 1', 'batch 2']);
  });
  it('answers a query asked while a big batch of document chunks is embedding before that batch, which stays whole and in order', async () => {
    // ~3000-character chunks, as documents are cut: the batch takes seconds in one piece.
    const chunk = (i: number) =>
      Array.from({ length: 45 }, (_, j) => `The keeper of lighthouse ${i} logged ship ${j} passing at dawn.`).join(' ').slice(0, 3000);
    const texts = Array.from({ length: 12 }, (_, i) => chunk(i));
    const order: string[] = [];
    const batch = e.embed(texts).then((v) => (order.push('batch'), v));
    const query = e.embed(['which ship passed the lighthouse?'], { urgent: true }).then((v) => (order.push('query'), v));
    const [vectors, [q]] = await Promise.all([batch, query]);
    expect(order).toEqual(['query', 'batch']);
    expect(q).toHaveLength(512);
    expect(vectors).toHaveLength(12);
    // Each vector belongs to its own text: the same text embedded alone gives the same vector.
    for (const i of [0, 5, 11]) {
      const [alone] = await e.embed([texts[i]!]);
      expect(cosine(alone!, vectors[i]!)).toBeGreaterThan(0.999);
      expect(cosine(alone!, vectors[(i + 1) % 12]!)).toBeLessThan(cosine(alone!, vectors[i]!));
    }
  });

  it('runs a query asked while two documents embed right after the sub-batch being computed, before every waiting one', async () => {
    // ~370-character windows, as a document is cut: two a message, six messages a document.
    const window = (doc: string, i: number) =>
      `${doc}, section ${i}. ` + Array.from({ length: 8 }, (_, j) => `The clerk of ${doc} filed ledger ${i * 10 + j} before noon.`).join(' ');
    const docs = ['Harbour records', 'Mill accounts'].map((doc) => Array.from({ length: 12 }, (_, i) => window(doc, i).slice(0, 370)));
    const a = new LocalEmbedder(thread);
    const b = new LocalEmbedder(thread);
    // Each message's answer, in the order the thread gives them back.
    const answered: string[] = [];
    await e.embed(['warm']);
    const run = thread.run.bind(thread);
    thread.run = (texts, urgent) => run(texts, urgent).then((res) => (answered.push(urgent ? 'query' : texts[0]!.split(',')[0]!), res));
    try {
      const batches = [a.embed(docs[0]!), b.embed(docs[1]!)];
      const [q] = await e.embed(['which clerk filed ledger 42?'], { urgent: true });
      const [first, second] = await Promise.all(batches);
      // At most the one sub-batch being computed when the query came went before it; the others all waited.
      expect(answered).toHaveLength(13);
      expect(answered.indexOf('query')).toBeLessThanOrEqual(1);
      expect(answered.filter((x) => x !== 'query')).toHaveLength(12);
      expect(q).toHaveLength(512);
      // A one-thread pool (a one-core machine) never starts a second thread, however much work waits.
      expect(thread.running()).toBe(1);
      // Every window of both documents got its own vector, in order.
      expect([first!.length, second!.length]).toEqual([12, 12]);
      for (const [texts, vectors] of [[docs[0]!, first!], [docs[1]!, second!]] as const) {
        for (const i of [0, 7, 11]) {
          const [alone] = await e.embed([texts[i]!]);
          expect(cosine(alone!, vectors[i]!)).toBeGreaterThan(0.999);
        }
      }
    } finally {
      thread.run = run;
      await a.close();
      await b.close();
    }
  });

  it('shares one loaded model between two embedders; each gets its own vectors, and closing one leaves the other working', async () => {
    const other = new LocalEmbedder(thread);
    // The model is already loaded in the thread: the second embedder starts warm, nothing to load again.
    expect(other.warm()).toBe(true);
    const mine = ['bees on the roof', 'a sourdough starter named Bob', 'the train to Leeds at 7:12'];
    const theirs = ['a violin lesson on Thursday', 'the dentist moved to Friday'];
    const [a, b] = await Promise.all([e.embed(mine), other.embed(theirs)]);
    expect(a).toHaveLength(3);
    expect(b).toHaveLength(2);
    for (const [texts, vectors] of [[mine, a], [theirs, b]] as const) {
      for (let i = 0; i < texts.length; i++) {
        const [alone] = await e.embed([texts[i]!]);
        expect(cosine(alone!, vectors[i]!)).toBeGreaterThan(0.999);
      }
    }
    // Closing the second fails only its own pending request; the first keeps embedding on the same thread.
    const cut = expect(other.embed(['never answered'])).rejects.toMatchObject({ code: 'cancelled' });
    await other.close();
    await cut;
    const [again] = await e.embed([mine[0]!]);
    expect(cosine(again!, a[0]!)).toBeGreaterThan(0.999);
    expect(e.warm()).toBe(true);
  });

  it('a stopped model thread fails the request in it with a clear error, and the next request starts it again', async () => {
    const failed = expect(e.embed(['the thread stops under this one'])).rejects.toMatchObject({
      code: 'provider_error',
      message: expect.stringMatching(/model stopped/),
    });
    await thread.stop();
    await failed;
    expect(e.warm()).toBe(false);
    const [v] = await e.embed(['back again']);
    expect(v).toHaveLength(512);
    expect(e.warm()).toBe(true);
  });
});
