import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { isMatch } from '../../shared/recall-match';
import { exactRecall, recall } from './recall';

// Multi-hop (docs/ranking.md, "Second round"): the answer shares no word with
// the question, only with the memory that answers its first half.
const NOW = new Date('2026-06-01T12:00:00Z');
const QUESTION = "Which subject did Ana's brother pick at university?";

let core: TestCore;
const ids: Record<string, string> = {};

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW, queues: {} });
  const db = core.ctx.db;
  await addPersona(db, 'family');
  const mem = (key: string, content: string, importance: number) =>
    insertFixtureMemory(db, NOW, 'none', { persona: 'family', content, importance, daysAgo: 1 }).then((id) => (ids[key] = id));
  await mem('brother', "Ana's brother is called Tomasz and lives in Gdansk.", 5);
  await mem('answer', 'Tomasz studied geology in Krakow for five years.', 5);
  // More important, and no word shared with the question or the answer: without a second round they fill the top.
  for (let i = 0; i < 8; i++) await mem(`other${i}`, `Bought ${i + 2} tins of paint for the kitchen wall.`, 6);
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

const ask = (hopShare: number, exact = false) =>
  (exact ? exactRecall : recall)(core.ctx, { persona: 'family', query: QUESTION, limit: 3, kinds: ['memory'], queryEmbedding: null, tuning: { hopShare } });

describe('second recall round', () => {
  it('finds the memory that answers a two-step question through the words of the first step', async () => {
    const off = await ask(0);
    expect(off[0]!.id).toBe(ids.brother);
    expect(off.map((h) => h.id)).not.toContain(ids.answer);
    const on = await ask(0.8);
    expect(on[0]!.id).toBe(ids.brother);
    expect(on[1]!.id).toBe(ids.answer);
    // Its "why" is a better match's words, not the question's.
    expect(on[1]!.score.secondRound).toBe(0.8);
    expect(isMatch(on[1]!)).toBe(false);
    expect(on[0]!.score.secondRound).toBeUndefined();
    // The index path and the full scan agree with the second round too.
    expect((await ask(0.8, true)).map((h) => h.id)).toEqual(on.map((h) => h.id));
  });

  it('changes nothing when the first round found nothing to follow', async () => {
    const q = { persona: 'family', query: 'zebra crossing', limit: 3, kinds: ['memory' as const], queryEmbedding: null };
    const plain = await recall(core.ctx, { ...q, tuning: { hopShare: 0 } });
    const hop = await recall(core.ctx, { ...q, tuning: { hopShare: 0.8 } });
    expect(hop.map((h) => [h.id, h.score.final])).toEqual(plain.map((h) => [h.id, h.score.final]));
  });
});
