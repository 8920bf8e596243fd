import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recall } from '../recall/recall';
import { makeTestCore, type TestCore } from '../testing/core';
import { PgliteDb, type Queryable } from './client';
import { IdleVacuum, tableUpkeep } from './idle-vacuum';

// PGlite runs no autovacuum: the app vacuums a changed table at a quiet moment (docs/durability.md).
const QUIET = { idleMs: 200, pollMs: 100, minPages: 16, fraction: 0.05 };
const LONG = 'a long remembered afternoon by the river with the dog and the kite '.repeat(30);

/** Looks once a second: looking is itself a statement, and the vacuum waits for a quiet database. */
async function until(check: () => Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for the idle vacuum');
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

async function vacuums(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = $1',
    [table],
  );
  return rows[0]?.n ?? 0;
}

async function tablePages(core: TestCore): Promise<number> {
  const { rows } = await core.ctx.db.query<{ n: number }>(`SELECT (pg_relation_size('memories') / 8192)::int AS n`);
  return rows[0]!.n;
}

async function addMemories(core: TestCore, tag: string, n: number): Promise<void> {
  await core.ctx.db.query(
    `INSERT INTO memories (persona, content) SELECT 'main', $1 || ' ' || g || ' ' || $2 FROM generate_series(1, $3::int) g`,
    [tag, LONG, n],
  );
}

describe('idle vacuum', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await makeTestCore({ idleVacuum: QUIET });
  }, 120_000);
  afterAll(async () => core?.dispose());

  it('counting a persona\'s memories reads the index alone once the table has settled', async () => {
    await addMemories(core, 'first', 600);
    await until(async () => (await vacuums(core.ctx.db, 'memories')) > 0);
    const { rows } = await core.ctx.db.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM memories m WHERE m.persona = 'main'`,
    );
    const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
    expect(plan).toContain('Index Only Scan');
    expect(plan).toMatch(/"Heap Fetches":\s*0[,}]/);
    const memories = (await tableUpkeep(core.ctx.db.local!)).find((t) => t.table === 'memories')!;
    expect(memories.slowIndexes).toBe(true);
  });
  it('space freed by deleted memories is used again: adding as many back does not grow the file', async () => {
    const settled = await tablePages(core);
    const before = await vacuums(core.ctx.db, 'memories');

    // As in the test below: the delete's dead rows not yet counted when the first quiet look comes.
    await core.ctx.db.query('SELECT pg_stat_force_next_flush()');
    await core.ctx.db.query(`DELETE FROM memories WHERE persona = 'main' AND content LIKE 'first %' AND content NOT LIKE 'first 1 %'`);
    await until(async () => (await vacuums(core.ctx.db, 'memories')) > before);
    await addMemories(core, 'second', 599);

    // Without the vacuum the 599 new rows need as many pages again as the 600 took.
    expect(await tablePages(core)).toBeLessThan(settled * 1.15);
    const page = await core.call('memories.list', { persona: 'main', limit: 5 });
    expect(page.total).toBe(600);
  });

  it('after the vacuum, deleted memories stay gone from search and new ones are found, with their text index kept', async () => {
    const gone = await recall(core.ctx, { persona: 'main', query: 'first', kinds: ['memory'], limit: 50, queryEmbedding: null });
    expect(gone.filter((h) => h.score.text > 0)).toHaveLength(1);
    const found = await recall(core.ctx, { persona: 'main', query: 'second', kinds: ['memory'], limit: 50, queryEmbedding: null });
    expect(found.filter((h) => h.score.text > 0)).toHaveLength(50);
  });
});

// One plain table and nothing else writing: whether the vacuum comes rests on the look alone.
describe('a quiet look right after a delete', () => {
  it('vacuums the table although the delete had not yet reached the activity counters', async () => {
    const db = await PgliteDb.open(null);
    const upkeep = new IdleVacuum(db, { ...QUIET, analyzeFraction: 0.1 });
    try {
      upkeep.start();
      await db.exec('CREATE TABLE notes (id int PRIMARY KEY, body text)');
      await db.query(`INSERT INTO notes SELECT g, (SELECT string_agg(md5(g::text || '.' || i), '') FROM generate_series(1, 60) i) FROM generate_series(1, 400) g`);
      await until(async () => (await vacuums(db, 'notes')) > 0, 30_000);
      const before = await vacuums(db, 'notes');
      // Postgres passes a statement's counts on at most once a second: flushed just before, the delete's
      // dead rows are not yet counted when it ends.
      await db.query('SELECT pg_stat_force_next_flush()');
      await db.query('DELETE FROM notes WHERE id > 100');
      await until(async () => (await vacuums(db, 'notes')) > before, 15_000);
    } finally {
      await upkeep.stop();
      await db.close();
    }
  });
});
