import { openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { PgliteDb } from './client';
import { checkIntegrity } from './integrity';

const BLOCK = 8192;
let core: TestCore | null = null;
let db: PgliteDb | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
  if (core) rmSync(core.dataDir, { recursive: true, force: true });
  core = null;
});

/** A core with 3,000 memories, closed; returns the memories table's file and the data dir. */
async function closedCoreWithMemories(): Promise<{ pgdata: string; file: string }> {
  core = await makeTestCore();
  await core.ctx.db.exec(
    `INSERT INTO memories (persona, content, day)
     SELECT 'main', 'memory number ' || g || ' ' || repeat('x', 200), '2026-01-01' FROM generate_series(1, 3000) g`,
  );
  const before = await checkIntegrity(core.ctx.db);
  expect(before).toMatchObject({ ok: true, problems: [] });
  expect(before.checked).toBeGreaterThan(10);
  const { rows } = await core.ctx.db.query<{ path: string }>(`SELECT pg_relation_filepath('memories') AS path`);
  await core.close();
  const pgdata = join(core.dataDir, 'pgdata');
  return { pgdata, file: join(pgdata, rows[0]!.path) };
}

function overwriteBlock(file: string, block: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, BLOCK, block * BLOCK);
  } finally {
    closeSync(fd);
  }
}

describe('checkIntegrity', () => {
  it('names the table when one of its blocks was zeroed (rows that would silently vanish)', async () => {
    const { pgdata, file } = await closedCoreWithMemories();
    overwriteBlock(file, 5, Buffer.alloc(BLOCK));
    db = await PgliteDb.open(pgdata);
    const report = await checkIntegrity(db);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/table memories: \d+ of 3000 rows listed in index memories_pkey are missing/);
  });

  it('names the table when one of its blocks holds garbage, and keeps checking the others', async () => {
    const { pgdata, file } = await closedCoreWithMemories();
    overwriteBlock(file, 7, Buffer.alloc(BLOCK, 0x5a));
    db = await PgliteDb.open(pgdata);
    const report = await checkIntegrity(db);
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.startsWith('table memories'))).toBe(true);
    expect(report.problems.every((p) => p.includes('memories'))).toBe(true);
    expect(report.checked).toBeGreaterThan(10);
  });
});
