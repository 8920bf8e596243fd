import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';

// A Hearth left open all day should cost next to nothing: the job runner asks once a second whether
// anything is due (one statement for every queue), and the idle checkpoint and vacuum look only after a write.
describe('a Hearth with nothing to do', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await makeTestCore({ startupCheckDelayMs: null });
  }, 120_000);
  afterAll(async () => core?.dispose());

  it('asks the database about once a second, and nothing after the upkeep has settled', async () => {
    const db = core.ctx.db.local!;
    // A write, so the checkpoint and the vacuum have something to look at once.
    await core.call('personas.create', { name: 'Quiet' });
    await new Promise((r) => setTimeout(r, 3_000));
    const start = db.statementCount();
    const writes = db.writeCount();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 6_000));
    const seconds = (performance.now() - t0) / 1000;
    const asked = db.statementCount() - start;
    // Per queue and per look it was 4 queues + 1, plus up to four checkpoint looks a second: 30+ here.
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(db.writeCount()).toBe(writes);
  });
});
