import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMemories } from '../memories/import';
import { exactRecall } from '../testing/exact-recall';
import { makeTestCore, type TestCore } from '../testing/core';
import { addPersona } from '../testing/recall-fixtures';
import { clusteredSpace, prng, question, syntheticMemories } from '../testing/synthetic-corpus';
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import { recall } from './recall';
import { stagedTopK } from './staged-pass';

// An import's vectors wait outside the HNSW graph (embedding_model NULL, the tag in staged_model) until the
// embeddings queue places them a few rows at a time (docs/export.md). Recall reads those rows exactly
// meanwhile (docs/import-at-scale.md). The rows here are put in that state as an import leaves them: the
// vectors are in, their tags staged, and no job has run.
const NOW = new Date('2026-06-01T12:00:00Z');
const DIMS = 64;
const space = clusteredSpace(23, DIMS, 12);
let core: TestCore;
let model: string;

/** Moves the tags of a share of a persona's rows into staged_model, as an import does. */
async function stage(persona: string, every: number): Promise<number> {
  const { rows } = await core.ctx.db.query<{ n: number }>(
    `WITH s AS (UPDATE memories SET staged_model = embedding_model, embedding_model = NULL
       WHERE persona = $1 AND embedding_model = $2 AND seq % $3 = 0 RETURNING 1) SELECT count(*)::int AS n FROM s`,
    [persona, model, every],
  );
  return rows[0]!.n;
}

beforeAll(async () => {
  core = await makeTestCore({ now: () => NOW });
  model = core.ctx.embedder.model();
  await addPersona(core.ctx.db, 'side');
  const rows = (n: number, seed: number) => [...syntheticMemories({ n, seed, now: NOW, space })].map((m) => ({ ...m, embeddingModel: model }));
  await importMemories(core.ctx, 'main', rows(2_000, 1));
  await importMemories(core.ctx, 'side', rows(400, 2));
  // Half of main's rows and a third of side's have not joined the graph yet.
  expect(await stage('main', 2)).toBeGreaterThan(900);
  expect(await stage('side', 3)).toBeGreaterThan(100);
  await core.ctx.db.exec('ANALYZE memories');
}, 300_000);

afterAll(async () => {
  await core?.dispose();
});

describe('recall by meaning over vectors an import has not placed in the graph yet', () => {
  it('finds a staged memory by its meaning alone, with its cosine in the score', async () => {
    const { rows } = await core.ctx.db.query<{ id: string; v: string }>(
      `SELECT id, embedding::text AS v FROM memories WHERE persona = 'main' AND staged_model IS NOT NULL ORDER BY importance DESC, inserted_at DESC LIMIT 1`,
    );
    const target = rows[0]!;
    const vector = Float32Array.from(JSON.parse(target.v) as number[]).slice(0, DIMS);
    // No word of this query is in any memory: only the vector can find it.
    const hits = await recall(core.ctx, { persona: 'main', query: 'zzqx', queryEmbedding: vector, limit: 10, kinds: ['memory'] });
    const hit = hits.find((h) => h.id === target.id);
    expect(hit?.score.cosine).toBeCloseTo(1, 5);
    expect(hit?.memory?.embeddingStatus).toBe('pending');
  });

  it('agrees with the exact full scan on ≥ 99% of the top 10 while half the rows are staged', async () => {
    const rnd = prng(5);
    let agreed = 0;
    let total = 0;
    for (let i = 0; i < 25; i++) {
      const persona = i % 5 === 4 ? 'side' : 'main';
      const args = { persona, query: question(rnd), queryEmbedding: space.sample(rnd), limit: 10, kinds: ['memory' as const] };
      const fast = (await recall(core.ctx, args)).map((h) => h.id);
      const exact = (await exactRecall(core.ctx, args)).map((h) => h.id);
      expect(exact).toHaveLength(10);
      const ref = new Set(exact);
      agreed += fast.filter((id) => ref.has(id)).length;
      total += exact.length;
    }
    expect(agreed / total).toBeGreaterThanOrEqual(0.99);
  }, 180_000);

  it('finds the same nearest staged rows as one ordered scan', async () => {
    const v = space.sample(prng(8));
    const found = await stagedTopK(core.ctx.db, { persona: 'main', model, vector: encodeVector(v) }, 40);
    const { rows } = await core.ctx.db.query<{ id: string }>(
      `SELECT id FROM memories WHERE persona = 'main' AND staged_model = $1 AND embedding_model IS NULL AND superseded_by IS NULL
       ORDER BY embedding <=> $2::vector LIMIT 40`,
      [model, encodeVector(v)],
    );
    expect(found).toHaveLength(40);
    expect(found).toEqual(rows.map((r) => r.id));
  });

  it('reads the staged rows in pages and finds the same nearest ones as one ordered scan, filters included', async () => {
    const v = space.sample(prng(9));
    const oneScan = async (extra: string) =>
      (
        await core.ctx.db.query<{ id: string }>(
          `SELECT id FROM memories WHERE persona = 'main' AND staged_model = $1 AND embedding_model IS NULL AND superseded_by IS NULL${extra}
           ORDER BY embedding <=> $2::vector, id LIMIT 40`,
          [model, encodeVector(v)],
        )
      ).rows.map((r) => r.id);
    const statements: string[] = [];
    const counting: Queryable = {
      query: <T,>(sql: string, params?: unknown[]) => (statements.push(sql), core.ctx.db.query<T>(sql, params)),
      exec: (sql: string) => core.ctx.db.exec(sql),
    };
    // About a thousand staged rows, 100 a page.
    const found = await stagedTopK(counting, { persona: 'main', model, vector: encodeVector(v) }, 40, 100);
    expect(statements.length).toBeGreaterThanOrEqual(10);
    expect(found).toEqual(await oneScan(''));
    const travel = await stagedTopK(core.ctx.db, { persona: 'main', model, vector: encodeVector(v), filters: { category: 'travel', importanceMin: 5 } }, 40, 100);
    expect(travel.length).toBeGreaterThan(0);
    expect(travel).toEqual(await oneScan(` AND category = 'travel' AND importance >= 5`));
  });

  it('reads each page of staged rows through their own index, not the whole persona', async () => {
    const captured: { sql: string; params: unknown[] }[] = [];
    const capturing: Queryable = {
      query: <T,>(sql: string, params: unknown[] = []) => (captured.push({ sql, params }), core.ctx.db.query<T>(sql, params)),
      exec: (sql: string) => core.ctx.db.exec(sql),
    };
    await stagedTopK(capturing, { persona: 'main', model, vector: encodeVector(space.sample(prng(10))) }, 40, 100);
    const later = captured[3]!;
    const { rows } = await core.ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${later.sql}`, later.params);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('memories_staged_seq_idx');
    // A later page starts where the one before ended: the index scan returns that page's rows alone.
    expect(plan).toMatch(/Index Scan using memories_staged_seq_idx[^\n]*\(actual[^)]*rows=100(\.00)? /);
  });
});
