import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { asksForMany } from './diversity';
import { exactRecall, recall } from './recall';
import type { RecallTuning } from './tuning';

// A question asking for several things gets its answers from several days
// (docs/ranking.md, "Spread over days"), not the best day said four times.
const NOW = new Date('2026-06-01T12:00:00Z');
const QUESTION = 'Where have we gone hiking?';

let core: TestCore;
const ids: Record<string, string> = {};

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW, queues: {} });
  const db = core.ctx.db;
  await addPersona(db, 'walks');
  const mem = (key: string, content: string, day: string, vector: number[]) =>
    insertFixtureMemory(db, NOW, core.ctx.embedder.model(), { persona: 'walks', content, importance: 5, daysAgo: 1, day, vector, origin: 'review' }).then(
      (id) => (ids[key] = id),
    );
  // One chat on 3 May says "hiking" over and over; two other days each mention a hike once.
  const same = [1, 0, 0, 0];
  await mem('may1', 'Hiking hiking hiking: the ridge hike was the best hiking day.', '2026-05-03', same);
  await mem('may2', 'Hiking again on the ridge, more hiking tomorrow, hiking is great.', '2026-05-03', [0.99, 0.14, 0, 0]);
  await mem('may3', 'Still hiking the ridge: hiking boots, hiking poles, hiking all day.', '2026-05-03', [0.98, 0.2, 0, 0]);
  await mem('may4', 'Hiking, hiking, hiking — the ridge hiking never ends.', '2026-05-03', [0.97, 0.24, 0, 0]);
  await mem('lake', 'We went hiking around the lake near Bled.', '2026-04-12', [0, 1, 0, 0]);
  await mem('coast', 'A hiking trip along the coast in Cornwall.', '2026-02-20', [0, 0, 1, 0]);
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

const ask = (tuning: Partial<RecallTuning>, query = QUESTION, exact = false) =>
  (exact ? exactRecall : recall)(core.ctx, { persona: 'walks', query, limit: 3, kinds: ['memory'], queryEmbedding: [1, 0.3, 0.3, 0], tuning });

describe('spreading a list question over days', () => {
  it('returns hikes from three different days instead of three copies of one chat', async () => {
    const plain = await ask({});
    expect(plain.map((h) => h.memory!.day)).toEqual(['2026-05-03', '2026-05-03', '2026-05-03']);
    const spread = await ask({ dayCap: 1 });
    expect(new Set(spread.map((h) => h.memory!.day)).size).toBe(3);
    expect(spread.map((h) => h.id)).toEqual(expect.arrayContaining([ids.lake, ids.coast]));
    // The best of the day that had them all still leads.
    expect(spread[0]!.id).toBe(plain[0]!.id);
    // Still the formula's order, and the index path agrees with the full scan.
    expect(spread.map((h) => h.score.final)).toEqual([...spread.map((h) => h.score.final)].sort((a, b) => b - a));
    expect((await ask({ dayCap: 1 }, QUESTION, true)).map((h) => h.id)).toEqual(spread.map((h) => h.id));
  });

  it('by meaning: a memory that repeats one already chosen gives way to one that adds something', async () => {
    const spread = await ask({ mmr: 0.5 });
    expect(spread.map((h) => h.id)).toContain(ids.lake);
    expect(spread.filter((h) => h.memory!.day === '2026-05-03').length).toBeLessThan(3);
  });

  it('leaves a question about one thing as it was when only list questions are spread', async () => {
    const one = 'What is the ridge hike like?';
    const t = { dayCap: 1, spreadListOnly: true };
    expect((await ask(t, one)).map((h) => h.id)).toEqual((await ask({}, one)).map((h) => h.id));
    expect(new Set((await ask(t)).map((h) => h.memory!.day)).size).toBe(3);
  });
});

describe('asksForMany', () => {
  it('hears a list in plurals, the present perfect and counting words', () => {
    for (const q of ['Which cities has Jon visited?', 'What activities does Ana do?', 'Where has she camped?', 'Have we ever been to Rome?', 'How many times did I call mum?', 'What kinds of tea do I like?'])
      expect(asksForMany(q), q).toBe(true);
  });
  it('not in a question about one thing', () => {
    for (const q of ["What is Ana's phone number?", 'When did Tom move to Gdansk?', 'What does Ana’s necklace mean?', 'Who is my dentist?'])
      expect(asksForMany(q), q).toBe(false);
  });
});
