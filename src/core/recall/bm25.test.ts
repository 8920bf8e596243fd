import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../testing/synthetic-corpus';
import { makeTestCore, type TestCore } from '../testing/core';
import { bm25FromTsvector, solveIdf } from './bm25';
import { insertFixtureChunk, insertFixtureMemory } from '../testing/recall-fixtures';
import { prepareTextQuery, rawText, type TextColumns, textColumnsSql } from './text-query';
import { Params } from './params';
import { textIndex } from './text-index';

describe('bm25FromTsvector', () => {
  const idf = new Map([
    ['garden', 2],
    ["o'brien", 3],
    ['back\\slash', 5],
  ]);
  it('counts positions per lexeme and saturates them like BM25 (k1 = 1.2)', () => {
    expect(bm25FromTsvector("'garden':4B 'shed':5B", idf)).toBeCloseTo(2, 12);
    // tf 2 → 2·2.2/3.2 = 1.375 times tf 1.
    expect(bm25FromTsvector("'garden':1B,7B", idf)).toBeCloseTo(2 * 1.375, 12);
  });
  it('reads quoted and backslash-escaped lexemes and ignores lexemes outside the query', () => {
    expect(bm25FromTsvector("'o''brien':2B 'the':3B", idf)).toBeCloseTo(3, 12);
    expect(bm25FromTsvector("'back\\\\slash':9B 'garden':1B", idf)).toBeCloseTo(7, 12);
    expect(bm25FromTsvector(null, idf)).toBe(0);
    expect(bm25FromTsvector('', idf)).toBe(0);
  });
});

describe('solveIdf', () => {
  it('isolates a compound word’s own lexeme from the parts the parser also lists', () => {
    const idf = solveIdf([
      { lexemes: ['return', 'tax', 'tax-return'], counts: [1, 1, 1], score: 9 },
      { lexemes: ['tax'], counts: [1], score: 3 },
      { lexemes: ['return'], counts: [1], score: 2 },
    ]);
    expect(Object.fromEntries(idf)).toEqual({ tax: 3, return: 2, 'tax-return': 4 });
  });
});

// The whole point of computing BM25 in JS: it must be pg_textsearch's own score.
describe('BM25 from stored lexemes equals pg_textsearch’s `<@>`', () => {
  let core: TestCore;
  const NOW = new Date('2026-06-01T12:00:00Z');
  const WORDS = [
    'garden', 'gardening', 'shed', 'piano', 'lessons', 'tax-returns', 'state-of-the-art', "O'Brien", 'Lisbon',
    'espresso', 'machine', 'machines', 'bob@example.com', 'https://example.com/garden/plan.html', '2024', '3.5',
    'the', 'a', 'and', 'running', 'ran', 'runs', 'café', 'naïve', 'über', 'C:\\temp\\notes.txt', 'x-ray', 'e-mail',
  ];
  const sentence = (rnd: () => number, n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');

  beforeAll(async () => {
    core = await makeTestCore({ now: () => NOW });
    const rnd = prng(7);
    const model = core.ctx.embedder.model();
    for (let i = 0; i < 120; i++) {
      // Categories share words with the content: only the content may count (the bm25 index reads content).
      await insertFixtureMemory(core.ctx.db, NOW, model, { persona: 'main', content: sentence(rnd, 3 + Math.floor(rnd() * 12)), category: i % 3 ? 'garden' : null, importance: 5, daysAgo: i });
    }
    for (let i = 0; i < 40; i++) {
      await insertFixtureChunk(core.ctx.db, model, { persona: 'main', source: `doc${i % 4}.md`, index: i, content: sentence(rnd, 20 + Math.floor(rnd() * 40)) });
    }
  }, 120_000);
  afterAll(async () => {
    await core?.dispose();
  });

  it('for every row and 60 queries (compound words, URLs, repeats, accents, words absent from the index)', async () => {
    const rnd = prng(9);
    const queries = [...Array.from({ length: 57 }, () => sentence(rnd, 1 + Math.floor(rnd() * 6))), 'garden garden garden', 'zebra unicorn', 'state-of-the-art tax-returns x-ray'];
    let compared = 0;
    for (const query of queries) {
      const tq = await prepareTextQuery(core.ctx.db, query, textIndex('pg_textsearch'));
      for (const [table, alias, index] of [
        ['memories', 'm', 'memories_bm25_idx'],
        ['knowledge_chunks', 'k', 'knowledge_bm25_idx'],
      ] as const) {
        const p = new Params();
        const cols = textColumnsSql(tq, alias, p);
        const { rows } = await core.ctx.db.query<TextColumns & { op: number }>(
          `SELECT ${cols}, -(${alias}.content <@> to_bm25query(${p.add(tq.text)}::text, '${index}'))::float8 AS op FROM ${table} ${alias}`,
          p.values,
        );
        for (const r of rows) {
          const mine = rawText(tq, table === 'memories' ? 'memories' : 'knowledge', r);
          expect(mine, `${table} "${query}"`).toBeCloseTo(r.op, 4);
          if (r.op > 0) compared++;
        }
      }
    }
    // Not vacuous: most queries match many rows.
    expect(compared).toBeGreaterThan(2_000);
  });
});
