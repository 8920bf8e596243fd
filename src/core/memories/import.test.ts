import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recall } from '../recall/recall';
import { makeTestCore, type TestCore } from '../testing/core';
import { importBatches } from './import';

let core: TestCore;

beforeAll(async () => {
  // No job queues: the embedding jobs an import enqueues stay queued.
  core = await makeTestCore({ queues: {} });
  for (const name of ['Left', 'Right']) await core.call('personas.create', { name });
});

afterAll(async () => {
  await core?.dispose();
});

async function textIndexes(): Promise<Record<string, string>> {
  const { rows } = await core.ctx.db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories' AND indexname IN ('memories_bm25_idx', 'memories_search_idx')`,
  );
  return Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef]));
}

const rows = (n: number, word: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ({ content: `note ${i} about ${word(i)}`, importance: 1 + (i % 10), day: '2026-01-05' }));

describe('importBatches', () => {
  it('a big load into several personas rebuilds the text indexes as the migrations made them, and text recall finds its rows', async () => {
    const before = await textIndexes();
    expect(Object.keys(before).sort()).toEqual(['memories_bm25_idx', 'memories_search_idx']);
    const res = await importBatches(core.ctx, [
      { persona: 'left', rows: rows(1500, (i) => (i === 777 ? 'quokkas' : 'gardening')) },
      { persona: 'right', rows: rows(1000, (i) => (i === 3 ? 'quokkas' : 'cooking')) },
    ]);
    expect(res).toMatchObject({ inserted: 2500, rebuiltTextIndexes: true, rebuiltIndex: false });
    expect(await textIndexes()).toEqual(before);

    const hits = await recall(core.ctx, { persona: 'left', query: 'quokkas', queryEmbedding: null, kinds: ['memory'], limit: 3 });
    expect(hits[0]?.content).toBe('note 777 about quokkas');
    expect(hits.every((h) => h.memory?.persona === 'left')).toBe(true);
    const ts = await recall(core.ctx, { persona: 'right', query: 'quokkas', queryEmbedding: null, kinds: ['memory'], limit: 3 });
    expect(ts[0]?.content).toBe('note 3 about quokkas');
  });

  it('a failed big load leaves the table and its text indexes as they were', async () => {
    const before = await textIndexes();
    const bad = rows(2400, () => 'hiking').map((r, i) => (i === 2300 ? { ...r, importance: 11 } : r));
    await expect(importBatches(core.ctx, [{ persona: 'left', rows: bad }])).rejects.toThrow();
    expect(await textIndexes()).toEqual(before);
    const hits = await recall(core.ctx, { persona: 'left', query: 'hiking', queryEmbedding: null, kinds: ['memory'], limit: 3 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.filter((h) => h.content.includes('hiking'))).toEqual([]);
    const { rows: n } = await core.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE persona = 'left'`);
    expect(n[0]?.n).toBe(1500);
  });
});
