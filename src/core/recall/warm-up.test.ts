import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { sharedModelPool } from '../providers/embeddings/local-pool';
import { scheduleRecallWarmUp } from './warm-up';

/** The SQL the core's database is asked, in order (an observer over the real database, which still answers). */
function watchStatements(core: TestCore): string[] {
  const seen: string[] = [];
  const db = core.ctx.db;
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    seen.push(sql);
    return query(sql, params);
  }) as typeof db.query;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<typeof transaction>[0]) => {
    seen.push('BEGIN');
    return transaction(fn);
  }) as typeof db.transaction;
  return seen;
}

describe('the recall warm-up after start', () => {
  let core: TestCore;
  beforeEach(async () => {
    core = await makeTestCore();
  });
  afterEach(async () => {
    await core.dispose();
  });

  it("runs a recall over the first persona without starting the model's thread or failing", async () => {
    const seen = watchStatements(core);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void warnings.push(a.map(String).join(' '));
    try {
      const warm = scheduleRecallWarmUp(core.ctx, 0);
      await warm.done;
    } finally {
      console.warn = warn;
    }
    // The persona it chose, then recall's own read transaction.
    expect(seen.some((s) => /FROM personas/.test(s))).toBe(true);
    expect(seen).toContain('BEGIN');
    // It passed its own query vector: no text was embedded, so no model thread was started for it.
    expect(sharedModelPool().running()).toBe(0);
    expect(warnings).toEqual([]);
    // Recall still answers as before.
    expect(await core.call('recall', { persona: 'main', query: 'anything at all', limit: 3 })).toEqual([]);
  });

  it('cancelled before its time, runs no statement', async () => {
    const seen = watchStatements(core);
    const warm = scheduleRecallWarmUp(core.ctx, 0);
    await warm.cancel();
    // The timer would have fired by now: a later timer of the same delay runs after it.
    await new Promise((r) => setTimeout(r, 0));
    await warm.done;
    expect(seen).toEqual([]);
  });
});
