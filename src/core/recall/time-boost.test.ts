import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { exactRecall } from '../testing/exact-recall';
import { recall } from './recall';
import { DEFAULT_TUNING } from './tuning';

// A question that names a time prefers memories written then (docs/ranking.md,
// "Time in the question"), relative to recall's own clock.
const NOW = new Date('2026-06-01T12:00:00Z');
const T1 = 1 / 1.375; // one "hiking" against the best row's two (b = 0, k1 = 1.2)
const BOOST = DEFAULT_TUNING.timeBoost;

let core: TestCore;
const ids: Record<string, string> = {};

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW, queues: {} });
  const db = core.ctx.db;
  await addPersona(db, 'walks');
  const mem = (key: string, content: string, day: string) =>
    insertFixtureMemory(db, NOW, 'none', { persona: 'walks', content, importance: 5, daysAgo: 1, day }).then((id) => (ids[key] = id));
  // Inserted at the same instant: only the day they are about tells them apart.
  await mem('may', 'hiking hiking up the ridge with Sam', '2026-05-14');
  await mem('march', 'hiking by the lake with Ana', '2026-03-10');
  await mem('lastMarch', 'hiking in the snow', '2025-03-20');
  await mem('april', 'cooked soup', '2026-04-02');
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

/** With the defaults users run, or with the time boost off. */
const ask = (query: string, off = false) =>
  recall(core.ctx, { persona: 'walks', query, limit: 10, kinds: ['memory'], queryEmbedding: null, ...(off ? { tuning: { timeBoost: 0 } } : {}) });

describe('time-aware recall', () => {
  it('a memory written in the month asked about outranks a stronger match from another month', async () => {
    expect(BOOST).toBeGreaterThan(0);
    const plain = await ask('Where did I go hiking in March?', true);
    expect(plain[0]!.id).toBe(ids.may);
    const hits = await ask('Where did I go hiking in March?');
    // This March (2026) and the March before both count; May does not.
    expect(hits.slice(0, 2).map((h) => h.id).sort()).toEqual([ids.march, ids.lastMarch].sort());
    const march = hits.find((h) => h.id === ids.march)!;
    expect(march.score.timeBoost).toBe(1 + BOOST);
    expect(march.score.final).toBeCloseTo(((T1 + 0.1) / 2) * (1 + BOOST), 9);
    expect(hits.find((h) => h.id === ids.may)!.score.timeBoost).toBeUndefined();
  });

  it('reads "last year" from recall\'s clock, and keeps the event\'s words: a memory of that time matching nothing stays below', async () => {
    const hits = await ask('hiking last year');
    expect(hits[0]!.id).toBe(ids.lastMarch);
    const soup = hits.find((h) => h.id === ids.april);
    expect(soup === undefined || soup.score.timeBoost === undefined).toBe(true);
  });

  it('changes nothing for a question that names no time', async () => {
    expect(await ask('Where did I go hiking?')).toEqual(await ask('Where did I go hiking?', true));
  });

  it('ranks the same on the candidate path as over every row', async () => {
    for (const query of ['Where did I go hiking in March?', 'hiking last year', 'hiking in spring 2025']) {
      const a = { persona: 'walks', query, limit: 3, kinds: ['memory' as const], queryEmbedding: null };
      expect(await recall(core.ctx, a)).toEqual(await exactRecall(core.ctx, a));
    }
  });
});
