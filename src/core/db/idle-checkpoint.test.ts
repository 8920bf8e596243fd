import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { IdleCheckpointer, walSinceCheckpoint } from './idle-checkpoint';

// The checkpoint a backup needs is taken earlier, while nobody waits, so the backup's own is small.
const OPTIONS = { idleMs: 300, minWalBytes: 512 * 1024, pollMs: 50 };

async function writeLog(core: TestCore, tag: string): Promise<void> {
  // ~1 MB of log: 400 memories of ~2 kB each.
  const text = 'a long remembered afternoon by the river '.repeat(50);
  await core.ctx.db.query(
    `INSERT INTO memories (persona, content) SELECT 'main', $1 || ' ' || g FROM generate_series(1, 400) g`,
    [`${tag} ${text}`],
  );
}

async function until(check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('idle checkpoint', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await makeTestCore();
  }, 120_000);
  afterAll(async () => core?.dispose());

  it('takes the checkpoint once the database is quiet, so the log since the last one is small again', async () => {
    const cp = new IdleCheckpointer(core.ctx.db.local!, OPTIONS);
    try {
      await writeLog(core, 'quiet');
      expect(await walSinceCheckpoint(core.ctx.db)).toBeGreaterThan(OPTIONS.minWalBytes);
      cp.start();
      await until(async () => cp.taken > 0);
      expect(await walSinceCheckpoint(core.ctx.db)).toBeLessThan(OPTIONS.minWalBytes);
      // The rows are all there after it.
      const { rows } = await core.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE content LIKE 'quiet %'`);
      expect(rows[0]!.n).toBe(400);
    } finally {
      await cp.stop();
    }
  });

  it('never checkpoints while a transaction is open, however long it waits', async () => {
    const cp = new IdleCheckpointer(core.ctx.db.local!, OPTIONS);
    try {
      await core.ctx.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO memories (persona, content) SELECT 'main', 'held ' || g || repeat(' x', 1000) FROM generate_series(1, 400) g`);
        cp.start();
        // Far longer than the idle time, with plenty of log waiting.
        await new Promise((r) => setTimeout(r, OPTIONS.idleMs * 5));
        expect(cp.taken).toBe(0);
      });
      await until(async () => cp.taken > 0);
    } finally {
      await cp.stop();
    }
  });

  it('leaves a database with little new log alone', async () => {
    const cp = new IdleCheckpointer(core.ctx.db.local!, { ...OPTIONS, minWalBytes: 64 * 1024 * 1024 });
    try {
      await writeLog(core, 'small');
      cp.start();
      await new Promise((r) => setTimeout(r, OPTIONS.idleMs * 4));
      expect(cp.taken).toBe(0);
    } finally {
      await cp.stop();
    }
  });
});
