// Text-only mode: a PostgreSQL server without pgvector (Debian's, in
// scripts/test-servers.mjs). Hearth stores no vectors, queues no embedding
// jobs, recalls by text, says so once, and refuses what is the server's job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createCore } from '../index';
import { exportPersona } from '../portable/export';
import { recall } from '../recall/recall';
import { makeTestCore, templateCopy, type TestCore } from '../testing/core';
import { noServerReason } from '../testing/server';

const skipReason = noServerReason();
if (skipReason) console.log(`text-only.test.ts: skips: ${skipReason}`);

describe.skipIf(skipReason !== null)('on a server', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await makeTestCore();
  });
  afterAll(async () => {
    await core?.dispose();
  });

  it('app.info names the server without a password, and says text-only once when it has no pgvector', async () => {
    const info = await core.call('app.info', {});
    expect(info.database.kind).toBe('server');
    expect(info.database.server).toMatch(/^[^:@/]+@[^:/]+:\d+\/\w+$/);
    const textOnly = info.notices.filter((n) => n.startsWith('Text-only'));
    expect(info.database.textOnly).toBe(!core.ctx.db.features.vector);
    expect(textOnly).toHaveLength(core.ctx.db.features.vector ? 0 : 1);
  });

  it('backups, restore, the integrity check and durable commits say the server\'s own apply', async () => {
    for (const [method, args] of [
      ['backups.list', {}],
      ['backups.create', {}],
      ['data.checkIntegrity', {}],
    ] as const) {
      const res = await core.dispatch(method, args);
      expect(res).toMatchObject({ ok: false, error: { code: 'not_configured' } });
      expect(!res.ok && res.error.message).toContain('PostgreSQL server');
    }
    const durable = await core.dispatch('settings.set', { durableCommits: true });
    expect(durable).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(!durable.ok && durable.error.message).toContain('synchronous_commit');
  });
});

describe.skipIf(skipReason !== null)('text-only (a server without pgvector)', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await makeTestCore();
  });
  afterAll(async () => {
    await core?.dispose();
  });

  const HAS_VECTORS = 'this server has pgvector: the vector paths run in the other test files';

  it('stores memories and queues no embedding job', async (t) => {
    if (core.ctx.db.features.vector) return t.skip(HAS_VECTORS);
    await core.call('memories.write', { persona: 'main', content: 'Prefers green tea in the morning' });
    await core.call('memories.write', { persona: 'main', content: 'Runs on Tuesdays' });
    const { rows } = await core.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE queue = 'embeddings'`);
    expect(rows[0]!.n).toBe(0);
    expect(await core.call('embeddings.backfill', {})).toEqual({ enqueued: 0 });
  });

  it('recalls by text, ignoring a query vector it cannot compare', async (t) => {
    if (core.ctx.db.features.vector) return t.skip(HAS_VECTORS);
    // Without pg_textsearch too (Debian's server), BM25 comes from Hearth's own term counts (docs/ranking.md).
    const a = await core.call('memories.write', { persona: 'main', content: 'Drinks oolong after lunch' });
    const hits = await core.call('recall', { persona: 'main', query: 'oolong', kinds: ['memory'] });
    expect(hits[0]?.id).toBe(a.id);
    // A caller's own query vector cannot be compared with anything here: ignored, not an error.
    const withVector = await recall(core.ctx, { persona: 'main', query: 'oolong', kinds: ['memory'], queryEmbedding: [0.1, 0.2] });
    expect(withVector[0]?.id).toBe(a.id);
  });

  it('says a memory has no embedding ("none"), never "pending" forever', async (t) => {
    if (core.ctx.db.features.vector) return t.skip(HAS_VECTORS);
    const m = await core.call('memories.write', { persona: 'main', content: 'Keeps the spare key under the blue pot' });
    expect(m.embeddingStatus).toBe('none');
    expect((await core.call('memories.get', { id: m.id })).embeddingStatus).toBe('none');
    const listed = await core.call('memories.list', { persona: 'main' });
    expect(new Set(listed.items.map((x) => x.embeddingStatus))).toEqual(new Set(['none']));
    const hit = (await core.call('recall', { persona: 'main', query: 'spare key blue pot', kinds: ['memory'] }))[0];
    expect(hit?.memory?.embeddingStatus).toBe('none');
  });

  it('exports a persona without vectors; imported into PGlite, its memories are queued for embedding', async (t) => {
    if (core.ctx.db.features.vector) return t.skip(HAS_VECTORS);
    const persona = await core.call('personas.create', { name: 'Garden' });
    await core.call('memories.write', { persona: persona.id, content: 'The tomatoes go in after the last frost' });
    await core.call('memories.write', { persona: persona.id, content: 'Compost is turned every second week' });
    const file = await exportPersona(core.ctx, persona.id);
    const lines = gunzipSync(readFileSync(file.path)).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const memories = lines.filter((r) => r.type === 'memory');
    expect(memories.map((r) => r.content).sort()).toEqual(['Compost is turned every second week', 'The tomatoes go in after the last frost']);
    expect(memories.every((r) => r.embedding === null)).toBe(true);

    // On this computer's own database (pgvector), the same file's memories are embedded in the background.
    const dir = await templateCopy();
    const local = await createCore({ dataDir: dir, dailyBackups: false, startupCheckDelayMs: null, queues: {} });
    try {
      const imported = await local.call('personas.import', { path: file.path });
      expect(imported.toEmbed).toBe(2);
      const jobs = await local.call('jobs.list', { queue: 'embeddings', persona: imported.persona.id });
      expect(jobs.jobs.length).toBeGreaterThan(0);
      const list = await local.call('memories.list', { persona: imported.persona.id });
      expect(list.items.map((m) => m.embeddingStatus)).toEqual(['pending', 'pending']);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(file.path, { force: true });
    }
  }, 180_000);
});
