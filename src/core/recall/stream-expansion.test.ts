import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { exactRecall, recall } from './recall';
import type { RecallTuning } from './tuning';

// In a conversation the answer is often the turn after the one that matched
// (docs/ranking.md, "Stream expansion"): it shares no word with the question.
const NOW = new Date('2026-06-01T12:00:00Z');
const QUESTION = 'Where did we camp?';
const ON: Partial<RecallTuning> = { expandShare: 0.95, expandSeeds: 2 };
const OFF: Partial<RecallTuning> = { expandShare: 0 };

let core: TestCore;
const ids: Record<string, string> = {};

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW, queues: {} });
  const db = core.ctx.db;
  await addPersona(db, 'trips');
  const mem = (key: string, content: string, origin: 'review' | 'manual', day = '2026-05-20') =>
    insertFixtureMemory(db, NOW, 'none', { persona: 'trips', content, importance: 5, daysAgo: 1, day, origin }).then((id) => (ids[key] = id));
  // One chat, in this order: the question that matches, then its answer, then small talk.
  await mem('asked', 'Ana asked where we camped; camping there was her idea.', 'review');
  await mem('answer', 'By the lake, under the pines near Bled.', 'review');
  await mem('after', 'Then we talked about her new bike.', 'review');
  // Written by hand on other days, each mentioning camping once: without the expansion they fill the top.
  await mem('gear', 'Camping gear is in the attic.', 'manual', '2026-04-01');
  await mem('stove', 'The camping stove needs a new valve.', 'manual', '2026-03-11');
  await mem('list', 'Camp list: tent, mats, torch.', 'manual', '2026-02-02');
  // Written by hand right after the stove note, the same day: hand-written memories stand alone.
  await mem('shop', 'Ordered it from the shop in town.', 'manual', '2026-03-11');
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

const ask = (tuning: Partial<RecallTuning>, exact = false) =>
  (exact ? exactRecall : recall)(core.ctx, { persona: 'trips', query: QUESTION, limit: 3, kinds: ['memory'], queryEmbedding: null, tuning });

describe('stream expansion', () => {
  it('brings the answer written just after the matching turn into the top, below the match', async () => {
    const off = await ask(OFF);
    expect(off[0]!.id).toBe(ids.asked);
    expect(off.map((h) => h.id)).not.toContain(ids.answer);
    const on = await ask(ON);
    expect(on.slice(0, 2).map((h) => h.id)).toEqual([ids.asked, ids.answer]);
    // Found through a better match, at its share of that match's score.
    expect(on[1]!.score.final).toBeCloseTo(0.95 * on[0]!.score.final, 9);
    expect(on[1]!.score.secondRound).toBe(0.95);
    expect((await ask(ON, true)).map((h) => h.id)).toEqual(on.map((h) => h.id));
  });

  it('never pulls in a neighbour of a memory written by hand', async () => {
    const hits = await recall(core.ctx, { persona: 'trips', query: 'valve', limit: 3, kinds: ['memory'], queryEmbedding: null, tuning: ON });
    expect(hits[0]!.id).toBe(ids.stove);
    // The rest are there for recency and importance only, not through the stove.
    expect(hits.filter((h) => h.score.secondRound !== undefined)).toEqual([]);
  });
});
