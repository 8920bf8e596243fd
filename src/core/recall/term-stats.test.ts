// Without pg_textsearch (a PostgreSQL server), BM25 reads Hearth's own term
// statistics and finds its top-k through GIN (text-index.ts). On one PGlite
// database both are available, so the same rows are ranked both ways here and
// must agree: the IDFs to the last bit, recall's hits and scores.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecallHit } from '../../shared/api';
import { importMemories } from '../memories/import';
import { replaceSource } from '../knowledge/store';
import { makeTestCore, type TestCore } from '../testing/core';
import { keepOwnTermStats } from '../testing/term-stats';
import { hostileQuery } from '../testing/hostile-queries';
import { clusteredSpace, pick, prng, question, sentence } from '../testing/synthetic-corpus';
import { Params } from './params';
import { recall, type RecallArgs, searchMemories } from './recall';
import { TEXT_TABLES, textIndex, type TextIndexKind } from './text-index';
import { candidateSizes, indexSettings } from './probe';
import { prepareTextQuery, rawText, textColumnsSql } from './text-query';

const NOW = new Date('2026-06-01T12:00:00Z');
const PERSONAS = ['ana', 'ben'];
let core: TestCore;
const space = clusteredSpace(3, 16, 5);

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW, queues: {} });
  // What a server without pg_textsearch keeps; PGlite has the bm25 index and keeps none.
  await keepOwnTermStats(core.ctx.db);
  const rnd = prng(11);
  for (const p of PERSONAS) {
    await core.call('personas.create', { name: p });
    // Few days, so memories written the same day lend each other context.
    const rows = Array.from({ length: 50 }, () => {
      const at = new Date(NOW.getTime() - rnd() * 12 * 86_400_000);
      return {
        content: sentence(rnd),
        category: pick(rnd, ['journal', 'work', null]),
        importance: 1 + Math.floor(rnd() * 10),
        day: at.toISOString().slice(0, 10),
        insertedAt: at,
        embedding: rnd() < 0.8 ? space.sample(rnd) : null,
      };
    });
    await importMemories(core.ctx, p, rows);
    await replaceSource(core.ctx, {
      persona: p,
      source: `${p}-notes.md`,
      chunks: Array.from({ length: 10 }, () => ({ content: `${sentence(rnd)} ${sentence(rnd)}` })),
    });
  }
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

function queries(seed: number, n: number): string[] {
  const rnd = prng(seed);
  return Array.from({ length: n }, (_, i) => (i % 3 === 2 ? hostileQuery(rnd) : question(rnd)));
}

/** Each lexeme's weight per table, both ways: they must be the same numbers, not merely close. */
async function expectSameIdf(qs: string[]): Promise<number> {
  let compared = 0;
  for (const q of qs) {
    const a = await prepareTextQuery(core.ctx.db, q, textIndex('pg_textsearch'));
    const b = await prepareTextQuery(core.ctx.db, q, textIndex('term_stats'));
    for (const t of TEXT_TABLES) {
      expect(Object.fromEntries(b.idf[t]), `${t}: ${JSON.stringify(q).slice(0, 80)}`).toEqual(Object.fromEntries(a.idf[t]));
      compared += [...a.idf[t].values()].filter((w) => w > 0).length;
    }
  }
  return compared;
}

function relClose(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-300);
}

function expectSameHits(a: RecallHit[], b: RecallHit[], what: string): void {
  expect(b.map((h) => h.id), what).toEqual(a.map((h) => h.id));
  a.forEach((h, i) => {
    const o = b[i]!.score;
    for (const key of ['final', 'text'] as const) {
      expect(relClose(h.score[key], o[key]), `${what} #${i} ${key}: ${h.score[key]} vs ${o[key]}`).toBe(true);
    }
    expect(o.textFromNeighbours ?? 0, what).toBeCloseTo(h.score.textFromNeighbours ?? 0, 12);
  });
}

async function bothWays(args: RecallArgs, what: string, mode: 'recall' | 'exact' = 'recall'): Promise<number> {
  const run = (textIndex: TextIndexKind) => (mode === 'recall' ? recall(core.ctx, { ...args, textIndex }) : recall(core.ctx, { ...args, textIndex }, 'exact'));
  const a = await run('pg_textsearch');
  const b = await run('term_stats');
  expectSameHits(a, b, what);
  return a.length;
}

// Comparing needs both paths: a server without pg_textsearch runs the term_stats path in every other recall test.
const NO_BM25 = 'this database has no pg_textsearch to compare with';

describe('BM25 without pg_textsearch equals BM25 with it', () => {
  beforeEach((t) => {
    if (!core.ctx.db.features.bm25) t.skip(NO_BM25);
  });

  it('each query lexeme gets the same IDF bit for bit, memories and knowledge, hostile queries included', async () => {
    expect(await expectSameIdf([...queries(3, 90), 'garden garden garden', 'state-of-the-art tax-returns', 'zebra unicorn'])).toBeGreaterThan(150);
  });

  it('recall ranks memories and knowledge identically, with and without a query vector, filters and a time', async () => {
    const rnd = prng(5);
    let hits = 0;
    for (const [i, query] of queries(4, 24).entries()) {
      const persona = PERSONAS[i % 2]!;
      const vector = i % 2 ? space.sample(rnd) : null;
      // k = max(32, 3·limit) ≥ every memory of a persona: the text matches that lend context are the same rows both ways.
      const base: RecallArgs = { persona, query, limit: 20, queryEmbedding: vector };
      hits += await bothWays(base, `"${query.slice(0, 60)}"`);
      hits += await bothWays({ ...base, query: `${query} last week` }, `time "${query.slice(0, 60)}"`);
      hits += await bothWays({ ...base, filters: { importanceMin: 4, category: 'journal' } }, `filtered "${query.slice(0, 60)}"`);
      hits += await bothWays({ ...base, kinds: ['knowledge'], limit: 5 }, `knowledge "${query.slice(0, 60)}"`);
      if (i % 5 === 0) hits += await bothWays(base, `exact "${query.slice(0, 60)}"`, 'exact');
    }
    expect(hits).toBeGreaterThan(1000);
  }, 300_000);

  it('plain BM25 (no neighbour context) agrees at small limits too', async () => {
    const rnd = prng(6);
    for (const [i, query] of queries(7, 18).entries()) {
      const args: RecallArgs = { persona: PERSONAS[i % 2]!, query, limit: 3, tuning: { neighbourShare: 0 }, queryEmbedding: i % 3 ? space.sample(rnd) : null };
      await bothWays(args, `limit 3 "${query.slice(0, 60)}"`);
    }
  }, 300_000);

  it('the text top-k holds the same scores both ways (which of several equal scores is taken may differ)', async () => {
    let compared = 0;
    for (const query of queries(8, 40)) {
      for (const [table, sqlTable, alias] of [
        ['memories', 'memories', 'm'],
        ['knowledge', 'knowledge_chunks', 'k'],
      ] as const) {
        const scores: number[][] = [];
        for (const kind of ['pg_textsearch', 'term_stats'] as const) {
          const tq = await prepareTextQuery(core.ctx.db, query, textIndex(kind));
          const got = await core.ctx.db.transaction(async (tx) => {
            // recall's own planner settings: the bm25 index walked in its order, or GIN read by bitmap scans.
            await tx.exec(indexSettings(candidateSizes(8), tq.index.topKReadsGin));
            const p = new Params();
            const { where, order } = await tq.index.topK(tx, tq, table, alias, (sp: Params) => `${alias}.persona = ${sp.add('ana')}`, 8, p);
            const { rows } = await tx.query<{ tsv: string | null }>(
              `SELECT ${textColumnsSql(tq, alias, p)} FROM ${sqlTable} ${alias} WHERE ${alias}.persona = ${p.add('ana')} AND ${where} ORDER BY ${order} LIMIT 8`,
              p.values,
            );
            return rows.map((r) => rawText(tq, table, r));
          });
          scores.push(got);
        }
        expect(scores[1], `${table} "${query.slice(0, 60)}"`).toEqual(scores[0]);
        compared += scores[0]!.length;
      }
    }
    expect(compared).toBeGreaterThan(200);
  }, 300_000);

  it('the memory browser’s search gives the same hits and count', async () => {
    for (const query of queries(9, 12)) {
      const a = await searchMemories(core.ctx, { persona: 'ana', query, limit: 10, textIndex: 'pg_textsearch', queryEmbedding: null });
      const b = await searchMemories(core.ctx, { persona: 'ana', query, limit: 10, textIndex: 'term_stats', queryEmbedding: null });
      expectSameHits(a.hits, b.hits, `search "${query.slice(0, 60)}"`);
      expect(b.total).toBe(a.total);
    }
  }, 120_000);

  it('after writes, edits, deletions and a re-imported document, the counts follow the rows; equal again once the bm25 index is rebuilt', async () => {
    const rnd = prng(12);
    const written: string[] = [];
    for (let i = 0; i < 15; i++) written.push((await core.call('memories.write', { persona: 'ana', content: sentence(rnd), importance: 5 })).id);
    for (const id of written.slice(0, 5)) await core.call('memories.update', { id, content: sentence(rnd) });
    for (const id of written.slice(5, 10)) await core.call('memories.update', { id, importance: 9 });
    for (const id of written.slice(10, 13)) await core.call('memories.delete', { id });
    await replaceSource(core.ctx, { persona: 'ben', source: 'ben-notes.md', chunks: [{ content: `${sentence(rnd)} ${sentence(rnd)}` }] });
    await core.call('personas.delete', { id: 'ben', confirm: 'ben' });

    // Hearth's counts are the live rows' (checked against a count from scratch)…
    const { rows: truth } = await core.ctx.db.query<{ tbl: string; term: string; docs: string }>(
      `SELECT tbl, term, count(*)::text AS docs FROM (
         SELECT 'memories' AS tbl, t.term FROM memories r CROSS JOIN LATERAL bm25_terms(r.search_vector) t(term)
         UNION ALL SELECT 'knowledge_chunks', t.term FROM knowledge_chunks r CROSS JOIN LATERAL bm25_terms(r.search_vector) t(term)) x
       GROUP BY tbl, term ORDER BY tbl, term`,
    );
    const { rows: kept } = await core.ctx.db.query<{ tbl: string; term: string; docs: string }>(
      `SELECT tbl, term, docs::text FROM bm25_stats WHERE docs <> 0 ORDER BY tbl, term`,
    );
    expect(kept).toEqual(truth);
    expect(truth.length).toBeGreaterThan(50);

    // …while pg_textsearch counts the row versions its index still holds (docs/ranking.md). Rebuilt, it counts the live rows too.
    await core.ctx.db.exec('REINDEX INDEX memories_bm25_idx; REINDEX INDEX knowledge_bm25_idx;');
    expect(await expectSameIdf(queries(13, 30))).toBeGreaterThan(40);
    for (const [i, query] of queries(14, 15).entries()) {
      await bothWays({ persona: 'ana', query, limit: 20, queryEmbedding: null }, `after writes "${query.slice(0, 60)}"`);
    }
  }, 300_000);
});
