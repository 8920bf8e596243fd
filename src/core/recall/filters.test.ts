import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryFilters, RecallHit } from '../../shared/api';
import { isMatch, MEANINGFUL_COSINE } from '../../shared/recall-match';
import { encodeVector } from '../db/vector';
import { importMemories } from '../memories/import';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { CATEGORIES, clusteredSpace, prng, question, syntheticMemories } from '../testing/synthetic-corpus';
import { exactRecall } from '../testing/exact-recall';
import { recall, searchMemories } from './recall';
import { skipWithoutVectors } from '../testing/server';

// The memory browser's filters narrow recall itself: the hits are the
// formula's best among the memories passing the filters (not a cut of the
// unfiltered best), and memories.search says how many memories match at all.
const NOW = new Date('2026-06-01T12:00:00Z');
const DIMS = 64;
const space = clusteredSpace(23, DIMS, 12);
let core: TestCore;
let model: string;

/** What the page would show after hiding rows of a result: the old behaviour, for contrast. */
const passes = (f: MemoryFilters) => (h: RecallHit) => {
  const m = h.memory!;
  return (
    (f.category === undefined || m.category === f.category) &&
    (f.importanceMin === undefined || m.importance >= f.importanceMin) &&
    (f.importanceMax === undefined || m.importance <= f.importanceMax) &&
    (f.dayFrom === undefined || m.day >= f.dayFrom) &&
    (f.dayTo === undefined || m.day <= f.dayTo) &&
    (f.origin === undefined || m.origin === f.origin)
  );
};

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW });
  model = core.ctx.embedder.model();
  await addPersona(core.ctx.db, 'side');
  await addPersona(core.ctx.db, 'deploys');
  const rows = (n: number, seed: number) => [...syntheticMemories({ n, seed, now: NOW, space })].map((m) => ({ ...m, embeddingModel: model }));
  const main = await importMemories(core.ctx, 'main', rows(1_200, 3));
  const side = await importMemories(core.ctx, 'side', rows(300, 4));
  expect(main.inserted + side.inserted).toBe(1_500);
  // 80 recent, important "deploy" memories at work, and 6 old, unimportant ones in the garden:
  // an unfiltered search for "deploy" fills its first 50 with work.
  const db = core.ctx.db;
  for (let i = 0; i < 80; i++) {
    await insertFixtureMemory(db, NOW, model, { persona: 'deploys', content: `deploy freeze number ${i} for the release`, category: 'work', importance: 10, daysAgo: i / 100 });
  }
  for (let i = 0; i < 6; i++) {
    await insertFixtureMemory(db, NOW, model, {
      persona: 'deploys',
      content: `deploy the sprinkler plan ${i}`,
      category: 'garden',
      importance: 1,
      daysAgo: 200 + i,
      origin: i % 2 ? 'explicit' : 'manual',
    });
  }
  await db.exec('ANALYZE memories');
}, 300_000);

afterAll(async () => {
  await core?.dispose();
});

describe('filters narrow the recall itself', () => {
  it('a category filter finds memories an unfiltered top 50 does not contain', async () => {
    const unfiltered = await recall(core.ctx, { persona: 'deploys', query: 'deploy', limit: 50, kinds: ['memory'], queryEmbedding: null });
    expect(unfiltered).toHaveLength(50);
    // Hiding rows of that result (what the page did) leaves nothing.
    expect(unfiltered.filter(passes({ category: 'garden' }))).toHaveLength(0);

    const garden = await recall(core.ctx, {
      persona: 'deploys',
      query: 'deploy',
      limit: 10,
      kinds: ['memory'],
      queryEmbedding: null,
      filters: { category: 'garden' },
    });
    expect(garden.map((h) => h.content).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `deploy the sprinkler plan ${i}`));
  }, 120_000);

  it('origin and importance filters combine', async () => {
    const hits = await recall(core.ctx, {
      persona: 'deploys',
      query: 'deploy plan',
      limit: 10,
      kinds: ['memory'],
      queryEmbedding: null,
      filters: { origin: 'explicit', importanceMax: 3 },
    });
    expect(hits.map((h) => h.content).sort()).toEqual([1, 3, 5].map((i) => `deploy the sprinkler plan ${i}`));
  }, 120_000);

  it('agrees with scoring every memory that passes the filters, and every hit passes them', async () => {
    const rnd = prng(9);
    const filterSets: MemoryFilters[] = [
      { category: 'travel' },
      { importanceMin: 8 },
      { importanceMin: 3, importanceMax: 4 },
      { dayFrom: '2026-03-01', dayTo: '2026-04-15' },
      { category: 'work', importanceMax: 5, dayFrom: '2025-09-01' },
      { origin: 'import', category: 'health' },
    ];
    let agreed = 0;
    let total = 0;
    for (const filters of filterSets) {
      for (let i = 0; i < 3; i++) {
        const args = { persona: 'main', query: question(rnd), queryEmbedding: space.sample(rnd), limit: 10, kinds: ['memory' as const], filters };
        const fast = await recall(core.ctx, args);
        const exact = await exactRecall(core.ctx, args);
        expect(exact.length).toBeGreaterThan(0);
        for (const h of fast) expect(passes(filters)(h), `${JSON.stringify(filters)} let through ${JSON.stringify(h.memory)}`).toBe(true);
        const ref = new Set(exact.map((h) => h.id));
        agreed += fast.filter((h) => ref.has(h.id)).length;
        total += exact.length;
      }
    }
    expect(agreed / total).toBeGreaterThanOrEqual(0.99);
  }, 300_000);

  it('an empty set of filters recalls exactly what no filters do', async () => {
    const args = { persona: 'main', query: 'the kitchen renovation', queryEmbedding: space.sample(prng(2)), limit: 10, kinds: ['memory' as const] };
    const plain = await recall(core.ctx, args);
    const empty = await recall(core.ctx, { ...args, filters: {} });
    expect(empty.map((h) => h.id)).toEqual(plain.map((h) => h.id));
  }, 120_000);
});

describe('memories.search says how many memories match', () => {
  /** Brute force over every row: a word of the query, or cosine ≥ MEANINGFUL_COSINE, among rows passing the filters. */
  async function bruteCount(persona: string, query: string, v: Float32Array | null, filters: MemoryFilters): Promise<number> {
    const { rows } = await core.ctx.db.query<{ words: boolean; cosine: number | null; category: string; importance: number; day: string; origin: string }>(
      `SELECT m.search_vector @@ (SELECT string_agg(quote_literal(u.lexeme), ' | ')::tsquery FROM unnest(to_tsvector('english', $2)) u) AS words,
              CASE WHEN $3::vector IS NULL THEN NULL ELSE 1 - (m.embedding <=> $3::vector) END AS cosine,
              m.category, m.importance, to_char(m.day, 'YYYY-MM-DD') AS day, m.origin
       FROM memories m WHERE m.persona = $1 AND m.superseded_by IS NULL`,
      [persona, query, v ? encodeVector(v) : null],
    );
    const ok = passes(filters);
    return rows.filter(
      (r) => ok({ memory: { ...r } } as unknown as RecallHit) && (r.words || (r.cosine !== null && r.cosine >= MEANINGFUL_COSINE)),
    ).length;
  }

  it('by words only: every memory sharing a word, within the filters', async () => {
    const r = await searchMemories(core.ctx, { persona: 'deploys', query: 'deploy', limit: 10, queryEmbedding: null });
    expect(r.hits).toHaveLength(10);
    expect(r.total).toBe(86);
    expect(r.totalIsLowerBound).toBe(false);
    const garden = await searchMemories(core.ctx, { persona: 'deploys', query: 'deploy', limit: 10, queryEmbedding: null, filters: { category: 'garden' } });
    expect(garden.total).toBe(6);
    const none = await searchMemories(core.ctx, { persona: 'deploys', query: 'zebra', limit: 10, queryEmbedding: null });
    expect(none.total).toBe(0);
    // Recalled for importance and recency only: shown as weaker matches, never counted.
    expect(none.hits.filter(isMatch)).toHaveLength(0);
  }, 120_000);

  it('by words or meaning, with and without filters, equals a count over every row', async (t) => {
    skipWithoutVectors(t, core.ctx.db);
    const rnd = prng(31);
    const cases: MemoryFilters[] = [{}, { category: CATEGORIES[2]! }, { importanceMin: 9 }, { dayFrom: '2026-01-01' }];
    const exactTotals: number[] = [];
    for (const filters of cases) {
      const query = question(rnd);
      const v = space.sample(rnd);
      const r = await searchMemories(core.ctx, { persona: 'main', query, queryEmbedding: v, limit: 10, filters });
      const brute = await bruteCount('main', query, v, filters);
      if (r.totalIsLowerBound) expect(r.total).toBeLessThanOrEqual(brute);
      else {
        expect(r.total, `${query} ${JSON.stringify(filters)}`).toBe(brute);
        exactTotals.push(r.total);
      }
      expect(r.total).toBeGreaterThanOrEqual(r.hits.filter(isMatch).length);
    }
    // The count says more than the page shows: matches beyond the best 10.
    expect(exactTotals.some((n) => n > 10)).toBe(true);
  }, 300_000);

  it('refuses filters that make no sense, naming the field', async () => {
    await expect(core.call('memories.search', { persona: 'main', query: 'x', filters: { importanceMin: 11 } })).rejects.toMatchObject({
      code: 'invalid_args',
      message: expect.stringContaining('importanceMin'),
    });
    await expect(core.call('recall', { persona: 'main', query: 'x', filters: { dayFrom: '2026-02-30' } })).rejects.toMatchObject({
      code: 'invalid_args',
      message: expect.stringContaining('dayFrom'),
    });
  }, 60_000);
});
