import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusteredSpace, prng, question, syntheticMemories } from '../testing/synthetic-corpus';
import { importMemories } from '../memories/import';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona } from '../testing/recall-fixtures';
import { exactRecall } from '../testing/exact-recall';
import { recall, type RecallArgs } from './recall';

// docs/ranking.md, "At scale": candidates from the indexes, scored exactly, must agree with
// scoring every row on ≥ 99% of the top 10. A few thousand seeded rows:
// clustered vectors, days over a year, importance 1–10, a fifth of them
// embedded by another model (so they rank with the text-only formula),
// and a second persona sharing the table (the HNSW and BM25 filters).
const NOW = new Date('2026-06-01T12:00:00Z');
const DIMS = 64;
let core: TestCore;
const space = clusteredSpace(11, DIMS, 12);

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW });
  await addPersona(core.ctx.db, 'side');
  const model = core.ctx.embedder.model();
  const rows = (n: number, seed: number) =>
    [...syntheticMemories({ n, seed, now: NOW, space })].map((m, i) => ({
      ...m,
      embeddingModel: i % 5 === 0 ? 'old-model' : model,
    }));
  const main = await importMemories(core.ctx, 'main', rows(2_500, 1));
  const side = await importMemories(core.ctx, 'side', rows(500, 2));
  expect(main.inserted + side.inserted).toBe(3_000);
  // Every row came with a vector: no embedding job may change them during the test.
  const { rows: jobs } = await core.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs`);
  expect(jobs[0]!.n).toBe(0);
  await core.ctx.db.exec('ANALYZE memories');
}, 300_000);

afterAll(async () => {
  await core?.dispose();
});

async function agreement(make: (q: string, v: Float32Array, persona: string) => RecallArgs, queries = 25): Promise<number> {
  const rnd = prng(5);
  let agreed = 0;
  let total = 0;
  for (let i = 0; i < queries; i++) {
    const persona = i % 5 === 4 ? 'side' : 'main';
    const args = { ...make(question(rnd), space.sample(rnd), persona), limit: 10, kinds: ['memory' as const] };
    const fast = (await recall(core.ctx, args)).map((h) => h.id);
    const exact = (await exactRecall(core.ctx, args)).map((h) => h.id);
    expect(exact).toHaveLength(10);
    const ref = new Set(exact);
    agreed += fast.filter((id) => ref.has(id)).length;
    total += exact.length;
  }
  return agreed / total;
}

describe('index candidates agree with the exact full scan (top 10)', () => {
  it('production ranking with a query vector', async () => {
    expect(await agreement((query, v, persona) => ({ persona, query, queryEmbedding: v }))).toBeGreaterThanOrEqual(0.99);
  }, 180_000);

  it('production ranking, text only', async () => {
    expect(await agreement((query, _v, persona) => ({ persona, query, queryEmbedding: null }))).toBeGreaterThanOrEqual(0.99);
  }, 180_000);

  it('plain BM25 (no neighbour context) with a query vector', async () => {
    expect(await agreement((query, v, persona) => ({ persona, query, queryEmbedding: v, tuning: { neighbourShare: 0 } }))).toBeGreaterThanOrEqual(0.99);
  }, 180_000);

  // The text pool changes a ranking only through which matches lend neighbour context (docs/ranking.md,
  // "What a wider text pool costs"): more seeds with the same context must rank as the defaults do.
  it('64 text seeds of which 32 lend context rank as the defaults', async () => {
    const rnd = prng(9);
    let same = 0;
    for (let i = 0; i < 20; i++) {
      const args = { persona: 'main', query: question(rnd), queryEmbedding: space.sample(rnd), limit: 10, kinds: ['memory' as const] };
      const plain = (await recall(core.ctx, args)).map((h) => `${h.id} ${h.score.final}`);
      const wide = (await recall(core.ctx, { ...args, tuning: { textPool: 64, contextPool: 32 } })).map((h) => `${h.id} ${h.score.final}`);
      expect(plain).toHaveLength(10);
      if (plain.join() === wide.join()) same++;
    }
    // pg_textsearch picks among matches tied at the 32nd score by its own layout, so a tie may lend context elsewhere.
    expect(same).toBeGreaterThanOrEqual(18);
  }, 180_000);
});
