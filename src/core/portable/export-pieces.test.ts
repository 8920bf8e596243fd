import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client';
import { EventLoopTurns } from '../db/pace';
import { importMemories } from '../memories/import';
import { countMemories } from '../memories/transfer';
import { makeTestCore, type TestCore } from '../testing/core';

// What an export does before its first page, and the JavaScript between pages, leave gaps for other calls
// (docs/export.md, "Other calls go on").

let core: TestCore;
const N = 3_000;

beforeAll(async () => {
  core = await makeTestCore({ queues: {} });
  await core.call('personas.create', { name: 'Counted' });
  await importMemories(core.ctx, 'counted', Array.from({ length: N }, (_, i) => ({ content: `Note ${i} about the orchard`, day: '2025-05-01' })));
}, 120_000);

afterAll(async () => {
  await core?.dispose();
});

describe('export leaves gaps for other calls', () => {
  it('counting a big persona for the progress bar is done in pieces, and a call made meanwhile is answered between them', async () => {
    const probe = await core.call('memories.write', { persona: 'main', content: 'asked for during the count' });
    const order: string[] = [];
    let asked: Promise<unknown> | null = null;
    // The count's statements go through this handle; the other call goes straight to the database.
    const q: Queryable = {
      features: core.ctx.db.features,
      exec: (sql) => core.ctx.db.exec(sql),
      async query(sql, params) {
        const page = core.ctx.db.query(sql, params);
        // Asked for while the count's first piece holds the database: it is queued behind that piece only.
        asked ??= core.call('memories.get', { id: probe.id }).then(() => order.push('other call'));
        const out = await page;
        order.push('count piece');
        return out as never;
      },
    };
    expect(await countMemories(q, 'counted')).toBe(N);
    await asked;
    expect(order.length).toBeGreaterThanOrEqual(3);
    expect(order.slice(0, 2)).toEqual(['count piece', 'other call']);
    expect(order.slice(2).every((o) => o === 'count piece')).toBe(true);
  });

  it('the export of that persona names the file after it and holds every memory', async () => {
    const res = await core.call('personas.export', { id: 'counted' });
    expect(res.name).toBe('Counted.hearth');
    const imported = await core.call('personas.import', { path: res.path! });
    expect(imported.persona.counts).toEqual({ memories: N, userModel: 0, knowledgeSources: 0, knowledgeChunks: 0, messages: 0 });
    expect((await core.call('personas.list', {})).find((p) => p.id === imported.persona.id)?.counts).toEqual(imported.persona.counts);
  }, 120_000);

  it('a long stretch of JavaScript lets the event loop turn, so an answer waiting in its queue is handled', async () => {
    const turn = new EventLoopTurns(5);
    let handled = false;
    setImmediate(() => (handled = true));
    const start = performance.now();
    // Work that would otherwise hold the thread: 50 ms of it, with a chance to turn between items.
    while (performance.now() - start < 50 && !handled) {
      const t = performance.now();
      while (performance.now() - t < 1);
      await turn.maybe();
    }
    expect(handled).toBe(true);
  });
});
