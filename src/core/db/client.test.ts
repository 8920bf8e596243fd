import { afterEach, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';

let core: TestCore | null = null;
afterEach(async () => {
  await core?.dispose();
  core = null;
});

describe('Db.restart', () => {
  it('reopens the same data in a fresh worker; statements queued meanwhile run after it, in order', async () => {
    core = await makeTestCore();
    const db = core.ctx.db.local!;
    await db.query(`INSERT INTO memories (persona, content, day) VALUES ('main', 'kept across the restart', '2026-01-01')`);

    const restarting = db.restart();
    const queued = db.query<{ content: string }>(`SELECT content FROM memories WHERE persona = 'main'`);
    const write = db.query(`INSERT INTO memories (persona, content, day) VALUES ('main', 'written during it', '2026-01-02')`);
    await Promise.all([restarting, queued, write]);

    expect((await queued).rows.map((r) => r.content)).toEqual(['kept across the restart']);
    const { rows } = await db.query<{ content: string }>(`SELECT content FROM memories WHERE persona = 'main' ORDER BY day`);
    expect(rows.map((r) => r.content)).toEqual(['kept across the restart', 'written during it']);
    // A set-up that lives only in a session does not survive: proof the connection is new.
    await db.exec(`SET application_name = 'before'`);
    await db.restart();
    const { rows: app } = await db.query<{ name: string }>(`SELECT current_setting('application_name') AS name`);
    expect(app[0]?.name).not.toBe('before');
  });

  it('inside a transaction it does nothing (the transaction owns the connection)', async () => {
    core = await makeTestCore();
    const db = core.ctx.db.local!;
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO memories (persona, content, day) VALUES ('main', 'in the transaction', '2026-01-01')`);
      await db.restart();
      await tx.query(`INSERT INTO memories (persona, content, day) VALUES ('main', 'still the same one', '2026-01-01')`);
    });
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE persona = 'main'`);
    expect(rows[0]?.n).toBe(2);
  });
});
