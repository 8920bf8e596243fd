import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { exactRecall, recall } from './recall';

// Vector feedback (docs/ranking.md, "Feedback"): the memory that answers shares
// no meaning with the question, only with the memory that matches it best.
const NOW = new Date('2026-06-01T12:00:00Z');
const DIMS = 512;
const axis = (...parts: [number, number][]) => {
  const v = new Array<number>(DIMS).fill(0);
  for (const [i, x] of parts) v[i] = x;
  return v;
};

let core: TestCore;
const ids: Record<string, string> = {};

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW, queues: {} });
  const db = core.ctx.db;
  const model = core.ctx.embedder.model();
  await addPersona(db, 'family');
  const mem = (key: string, content: string, importance: number, vector: number[]) =>
    insertFixtureMemory(db, NOW, model, { persona: 'family', content, importance, daysAgo: 1, vector }).then((id) => (ids[key] = id));
  // Close to the question (axis 0) and to the answer (axis 1).
  await mem('near', 'We talked about where the family comes from.', 5, axis([0, 0.8], [1, 0.6]));
  await mem('answer', 'Grandpa grew up in a fishing village.', 5, axis([1, 1]));
  for (let i = 0; i < 6; i++) await mem(`other${i}`, `Bought ${i + 2} tins of paint.`, 7, axis([2 + i, 1]));
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

const ask = (feedback: number, exact = false) =>
  (exact ? exactRecall : recall)(core.ctx, {
    persona: 'family',
    query: 'origins',
    limit: 3,
    kinds: ['memory'],
    queryEmbedding: axis([0, 1]),
    tuning: { feedback, feedbackDocs: 1 },
  });

describe('vector feedback', () => {
  it('moves the question toward its best match and finds what that match is close to', async () => {
    const off = await ask(0);
    expect(off[0]!.id).toBe(ids.near);
    expect(off.map((h) => h.id)).not.toContain(ids.answer);
    const on = await ask(0.6);
    expect(on[0]!.id).toBe(ids.near);
    expect(on.map((h) => h.id)).toContain(ids.answer);
    // The index path and the full scan agree with feedback too.
    expect((await ask(0.6, true)).map((h) => h.id)).toEqual(on.map((h) => h.id));
  });
});
