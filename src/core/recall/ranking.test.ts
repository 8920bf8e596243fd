import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecallHit } from '../../shared/api';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { addPersona, insertFixtureChunk, insertFixtureMemory } from '../testing/recall-fixtures';
import { exactRecall } from '../testing/exact-recall';
import { recall } from './recall';
import { skipWithoutVectors } from '../testing/server';

// Hand-computed expectations for docs/ranking.md's formulas. The text inputs are chosen so the
// normalised BM25 term is known without the corpus statistics: for a
// one-word query every matching row shares the word's IDF, and with b = 0
// (no length normalisation) and k1 = 1.2 the term-frequency factor is
// tf·(k1+1)/(tf+k1): 1 for tf = 1, 2·2.2/3.2 = 1.375 for tf = 2. So the row
// with the word twice scores 1 after normalisation, the others 1/1.375.
const T1 = 1 / 1.375;
const R = Math.SQRT1_2;
const NOW = new Date('2026-06-01T12:00:00Z');

let fx: EmbedFixture;
const ids: Record<string, string> = {};
const label = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? '?';

beforeAll(async () => {
  fx = await makeEmbedFixture({ now: () => NOW });
  const db = fx.core.ctx.db;
  const model = fx.core.ctx.embedder.model();
  await addPersona(db, 'rank');
  const mem = (key: string, m: Parameters<typeof insertFixtureMemory>[3]) =>
    insertFixtureMemory(db, NOW, model, m).then((id) => (ids[key] = id));
  await mem('A', { persona: 'rank', content: 'zebra zebra grazing', category: 'wildlife', importance: 8, daysAgo: 1, vector: [0.6, 0.8, 0, 0] });
  await mem('B', { persona: 'rank', content: 'a zebra at noon', category: 'wildlife', importance: 5, daysAgo: 0.5, vector: [1, 0, 0, 0] });
  await mem('C', { persona: 'rank', content: 'zebra crossing downtown', category: 'city', importance: 10, daysAgo: 2 });
  await mem('D', { persona: 'rank', content: 'quiet morning coffee', category: 'journal', importance: 3, daysAgo: 0.25, vector: [R, R, 0, 0] });
  // Embedded by another model: counts as having no vector (docs/memory-model.md).
  await mem('E', { persona: 'rank', content: 'zebra', importance: 1, daysAgo: 4, vector: [1, 0, 0, 0], model: 'old-model' });
  await mem('F', { persona: 'rank', content: 'paperwork for taxes', category: 'finance', importance: 2, daysAgo: 10 });
  const chunk = (key: string, c: Parameters<typeof insertFixtureChunk>[2]) => insertFixtureChunk(db, model, c).then((id) => (ids[key] = id));
  await chunk('K1', { persona: 'rank', source: 'zoo.md', index: 0, content: 'zebra zebra migration notes', vector: [1, 0, 0, 0] });
  await chunk('K2', { persona: 'rank', source: 'zoo.md', index: 1, content: 'zebra facts', vector: [0, 1, 0, 0] });
  await chunk('K3', { persona: 'rank', source: 'zoo.md', index: 2, content: 'elephant herd', vector: [0.6, 0.8, 0, 0] });
  await chunk('K4', { persona: 'rank', source: 'notes.txt', index: 0, content: 'zebra stripes' });
  // Same words in another persona: must never show up, and must not disturb the normalisation.
  await addPersona(db, 'other');
  await insertFixtureMemory(db, NOW, model, { persona: 'other', content: 'zebra zebra zebra', importance: 10, daysAgo: 0, vector: [1, 0, 0, 0] });
});

afterAll(async () => {
  await fx?.dispose();
});

/** Expected finals, best first; ties broken by id as recall does. */
function expectedOrder(expected: Record<string, number>): string[] {
  return Object.entries(expected)
    .sort(([ka, a], [kb, b]) => b - a || (ids[ka]! < ids[kb]! ? -1 : 1))
    .map(([k]) => k);
}

function report(title: string, expected: Record<string, number>, hits: RecallHit[]) {
  const rows = hits.map((h, i) => ({
    rank: i + 1,
    row: label(h.id),
    expected: expected[label(h.id)]?.toFixed(6),
    actual: h.score.final.toFixed(6),
    text: h.score.text.toFixed(6),
    cosine: h.score.cosine?.toFixed(6) ?? '—',
  }));
  console.log(`\n${title}\n${rows.map((r) => `  ${r.rank}. ${r.row.padEnd(3)} expected ${r.expected} actual ${r.actual} (text ${r.text}, cosine ${r.cosine})`).join('\n')}`);
}

function check(expected: Record<string, number>, hits: RecallHit[]) {
  expect(hits.map((h) => label(h.id))).toEqual(expectedOrder(expected));
  for (const h of hits) expect(h.score.final).toBeCloseTo(expected[label(h.id)]!, 6);
}

describe('recall ranking (hand-computed, docs/ranking.md)', () => {
  it('with a query vector: vector formula for current-model rows, text-only for the rest, knowledge 0.4/0.6', async (t) => {
    skipWithoutVectors(t, fx.core.ctx.db);
    const expected = {
      A: (0.3 * 1 + 0.5 * 0.6 + (0.2 * 8) / 10) * (1 / (1 + 1)),
      B: (0.3 * T1 + 0.5 * 1 + (0.2 * 5) / 10) * (1 / (1 + 0.5)),
      C: (1.0 * T1 + (0.2 * 10) / 10) * (1 / (1 + 2)),
      D: (0.3 * 0 + 0.5 * R + (0.2 * 3) / 10) * (1 / (1 + 0.25)),
      E: (1.0 * T1 + (0.2 * 1) / 10) * (1 / (1 + 4)),
      F: (1.0 * 0 + (0.2 * 2) / 10) * (1 / (1 + 10)),
      K1: 0.4 * 1 + 0.6 * 1,
      K2: 0.4 * T1 + 0.6 * 0,
      K3: 0.4 * 0 + 0.6 * 0.6,
      K4: T1,
    };
    const hits = await recall(fx.core.ctx, { persona: 'rank', query: 'zebra', limit: 20, tuning: { neighbourShare: 0 }, queryEmbedding: [1, 0, 0, 0] });
    report('with vectors', expected, hits);
    check(expected, hits);
    const b = hits.find((h) => h.id === ids.B)!;
    expect(b.score.text).toBeCloseTo(T1, 6);
    expect(b.score.cosine).toBeCloseTo(1, 6);
    expect(b.score.importance).toBeCloseTo(0.1, 9);
    expect(b.score.recency).toBeCloseTo(1 / 1.5, 9);
    expect(b.tag).toBe(`[memory ${ids.B} · wildlife · imp=5 · 2026-06-01]`);
    expect(hits.find((h) => h.id === ids.E)!.score.cosine).toBeNull();
    expect(hits.find((h) => h.id === ids.K2)!.tag).toBe('[knowledge zoo.md#1]');
    expect(await exactRecall(fx.core.ctx, { persona: 'rank', query: 'zebra', limit: 20, tuning: { neighbourShare: 0 }, queryEmbedding: [1, 0, 0, 0] })).toEqual(hits);
  });

  it('without a query vector: text-only for every row; knowledge matching nothing is left out', async () => {
    const expected = {
      A: (1.0 * 1 + (0.2 * 8) / 10) / (1 + 1),
      B: (1.0 * T1 + (0.2 * 5) / 10) / (1 + 0.5),
      C: (1.0 * T1 + (0.2 * 10) / 10) / (1 + 2),
      D: (1.0 * 0 + (0.2 * 3) / 10) / (1 + 0.25),
      E: (1.0 * T1 + (0.2 * 1) / 10) / (1 + 4),
      F: (1.0 * 0 + (0.2 * 2) / 10) / (1 + 10),
      K1: 1,
      K2: T1,
      K4: T1,
    };
    const hits = await recall(fx.core.ctx, { persona: 'rank', query: 'zebra', limit: 20, tuning: { neighbourShare: 0 }, queryEmbedding: null });
    report('text only', expected, hits);
    check(expected, hits);
    expect(hits.every((h) => h.score.cosine === null)).toBe(true);
  });

  it('neighbour context: a memory inherits half of its best same-day neighbour\'s text match from the same stream, one hop only', async () => {
    const db = fx.core.ctx.db;
    const model = fx.core.ctx.embedder.model();
    await addPersona(db, 'ctx');
    const mem = (key: string, content: string, daysAgo: number, origin: 'import' | 'manual' = 'import') =>
      insertFixtureMemory(db, NOW, model, { persona: 'ctx', content, importance: 5, daysAgo, origin }).then((id) => (ids[key] = id));
    // M typed by hand, then P, Q, S imported in that order, all on 2026-05-31; R alone on 2026-05-29.
    // M sits right before P but inherits nothing: hand-written memories stand alone.
    await mem('M', 'a note typed by hand', 1.05, 'manual');
    await mem('P', 'zebra zebra', 1);
    await mem('Q', 'grazing quietly', 0.9);
    await mem('S', 'unrelated note', 0.8);
    await mem('R', 'a zebra', 3);
    // raw BM25 (units of one tf=1 match): P 1.375, Q 0 + 0.5·1.375 (from P), S 0 + 0.5·0 (Q's own text is 0), R 1.
    const expected = {
      P: (1.0 * 1 + 0.1) / (1 + 1),
      Q: (1.0 * 0.5 + 0.1) / (1 + 0.9),
      S: (1.0 * 0 + 0.1) / (1 + 0.8),
      R: (1.0 * T1 + 0.1) / (1 + 3),
      M: (1.0 * 0 + 0.1) / (1 + 1.05),
    };
    const hits = await recall(fx.core.ctx, { persona: 'ctx', query: 'zebra', limit: 20, queryEmbedding: null });
    report('neighbour context, text only', expected, hits);
    check(expected, hits);
    const q = hits.find((h) => h.id === ids.Q)!;
    expect(q.score.text).toBeCloseTo(0.5, 9);
    expect(q.score.textFromNeighbours).toBeCloseTo(0.5, 9);
    expect(hits.find((h) => h.id === ids.P)!.score.textFromNeighbours).toBeUndefined();
    expect(await exactRecall(fx.core.ctx, { persona: 'ctx', query: 'zebra', limit: 20, queryEmbedding: null })).toEqual(hits);
    // Without the neighbour share, Q matches nothing.
    const plain = await recall(fx.core.ctx, { persona: 'ctx', query: 'zebra', limit: 20, tuning: { neighbourShare: 0 }, queryEmbedding: null });
    expect(plain.find((h) => h.id === ids.Q)!.score.text).toBe(0);
  });

  it('limit and kinds cut the same ranking', async () => {
    const all = await recall(fx.core.ctx, { persona: 'rank', query: 'zebra', limit: 20, queryEmbedding: [1, 0, 0, 0] });
    const top3 = await recall(fx.core.ctx, { persona: 'rank', query: 'zebra', limit: 3, queryEmbedding: [1, 0, 0, 0] });
    expect(top3).toEqual(all.slice(0, 3));
    const memOnly = await recall(fx.core.ctx, { persona: 'rank', query: 'zebra', limit: 20, kinds: ['memory'], queryEmbedding: [1, 0, 0, 0] });
    expect(memOnly.map((h) => h.id)).toEqual(all.filter((h) => h.kind === 'memory').map((h) => h.id));
  });

  it('matches on any lexeme (OR), stems the question once, and an empty-after-stopwords query still answers', async () => {
    const or = await recall(fx.core.ctx, { persona: 'rank', query: 'Which elephants or unicorns?', kinds: ['knowledge'], queryEmbedding: null });
    expect(or.map((h) => label(h.id))).toEqual(['K3']);
    expect(or[0]!.score.text).toBe(1);
    const mixed = await recall(fx.core.ctx, { persona: 'rank', query: 'coffee zebras paperwork', limit: 20, kinds: ['memory'], queryEmbedding: null });
    const matched = mixed.filter((h) => h.score.text > 0).map((h) => label(h.id)).sort();
    expect(matched).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    const stop = await fx.core.call('recall', { persona: 'rank', query: 'the of and is', limit: 20 });
    expect(stop.every((h) => h.score.text === 0)).toBe(true);
  });

  it('the handler embeds the query with the current provider', async (t) => {
    skipWithoutVectors(t, fx.core.ctx.db);
    const hits = await fx.core.call('recall', { persona: 'rank', query: 'zebra', limit: 20 });
    expect(hits.some((h) => h.score.cosine !== null)).toBe(true);
    expect(hits.map((h) => h.id)).not.toContain(undefined);
  });
});

describe('recall filters', () => {
  it('date restricts memories to that day and leaves knowledge alone', async () => {
    const db = fx.core.ctx.db;
    const model = fx.core.ctx.embedder.model();
    await addPersona(db, 'dated');
    const m1 = await insertFixtureMemory(db, NOW, model, { persona: 'dated', content: 'ferry to the island', importance: 5, daysAgo: 30, day: '2026-05-01' });
    const m2 = await insertFixtureMemory(db, NOW, model, { persona: 'dated', content: 'ferry was late', importance: 5, daysAgo: 29, day: '2026-05-02' });
    const m3 = await insertFixtureMemory(db, NOW, model, { persona: 'dated', content: 'ferry tickets booked', importance: 9, daysAgo: 1, day: '2026-05-02' });
    const k = await insertFixtureChunk(db, model, { persona: 'dated', source: 'ferry.md', index: 0, content: 'ferry timetable' });
    const hits = await fx.core.call('recall', { persona: 'dated', query: 'ferry', date: '2026-05-02', limit: 10 });
    expect(hits.filter((h) => h.kind === 'memory').map((h) => h.id).sort()).toEqual([m2, m3].sort());
    expect(hits.map((h) => h.id)).toContain(k);
    expect(hits.map((h) => h.id)).not.toContain(m1);
    const none = await fx.core.call('recall', { persona: 'dated', query: 'ferry', date: '2026-04-01', kinds: ['memory'] });
    expect(none).toEqual([]);
  });

  it('an unknown persona is a clear error, a bad date is invalid_args', async () => {
    expect(await fx.core.dispatch('recall', { persona: 'ghost', query: 'x' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await fx.core.dispatch('recall', { persona: 'rank', query: 'x', date: '2026-02-30' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_args' },
    });
  });
});
