import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConversation } from '../conversations/snapshot';
import { enqueueJob } from '../jobs/enqueue';
import { replaceSource } from '../knowledge/store';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import { waitForJobs } from '../testing/wait-jobs';

// Every table that holds a persona's rows, and how to count them.
const COUNTS: Record<string, string> = {
  memories: 'SELECT count(*)::int AS n FROM memories WHERE persona = $1',
  user_models: 'SELECT count(*)::int AS n FROM user_models WHERE persona = $1',
  knowledge_sources: 'SELECT count(*)::int AS n FROM knowledge_sources WHERE persona = $1',
  knowledge_chunks: 'SELECT count(*)::int AS n FROM knowledge_chunks WHERE persona = $1',
  conversations: 'SELECT count(*)::int AS n FROM conversations WHERE persona = $1',
  messages: 'SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.persona = $1',
  jobs: 'SELECT count(*)::int AS n FROM jobs WHERE persona = $1',
  personas: 'SELECT count(*)::int AS n FROM personas WHERE id = $1',
};

let fx: EmbedFixture;

async function counts(persona: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [table, sql] of Object.entries(COUNTS)) out[table] = (await fx.core.ctx.db.query<{ n: number }>(sql, [persona])).rows[0]!.n;
  return out;
}

async function fill(persona: string): Promise<void> {
  const ctx = fx.core.ctx;
  for (let i = 0; i < 3; i++) await fx.core.call('memories.write', { persona, content: `${persona} memory ${i}` });
  await fx.core.call('userModel.upsert', { persona, dimension: 'goals', content: 'ship it' });
  await replaceSource(ctx, { persona, source: 'doc.md', chunks: [{ content: 'one' }, { content: 'two' }] });
  const conv = await ensureConversation(ctx.db, persona);
  await ctx.db.query(`INSERT INTO messages (conversation_id, role, content) VALUES ($1, 'user', 'hi'), ($1, 'assistant', 'hello')`, [conv]);
}

beforeAll(async () => {
  fx = await makeEmbedFixture();
  await fx.core.call('personas.create', { name: 'Day Trader' });
  await fx.core.call('personas.create', { name: 'Writer' });
  await fx.core.call('personas.create', { name: '🧑‍🏫 Teacher' });
  await fx.core.call('personas.create', { name: 'Chef 🧑‍🍳' });
  for (const p of ['main', 'day-trader', 'writer']) await fill(p);
  await waitForJobs(fx.core, 'embeddings', 120_000);
  // and one job per persona still waiting
  for (const persona of ['main', 'day-trader', 'writer']) {
    await enqueueJob(fx.core.ctx.db, { queue: 'embeddings', persona, args: { target: 'memory', ids: [] }, runAt: new Date(Date.now() + 3_600_000) });
  }
}, 180_000);

afterAll(async () => {
  await fx?.dispose();
});

describe('personas.delete', () => {
  it('needs the name as confirmation, and changes nothing otherwise', async () => {
    for (const confirm of ['day trader', 'Day', 'day-trader', '', '   ']) {
      expect(await fx.core.dispatch('personas.delete', { id: 'day-trader', confirm })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    expect(await fx.core.dispatch('personas.delete', { id: 'ghost', confirm: 'ghost' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await counts('day-trader')).memories).toBe(3);
  });

  it('takes the name trimmed, and a name that begins with an emoji without it', async () => {
    // Only a leading emoji may be left out: the rest of a name counts, and other personas' names do not.
    for (const confirm of ['Teacher 🧑‍🏫', 'teacher', '🧑‍🏫', 'Teach']) {
      expect(await fx.core.dispatch('personas.delete', { id: 'teacher', confirm })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    for (const confirm of ['Chef', '🧑‍🍳']) {
      expect(await fx.core.dispatch('personas.delete', { id: 'chef', confirm })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    expect((await fx.core.call('personas.list', {})).map((p) => p.id)).toContain('teacher');
    await fx.core.call('personas.delete', { id: 'teacher', confirm: ' Teacher ' });
    await fx.core.call('personas.delete', { id: 'chef', confirm: 'Chef 🧑‍🍳 ' });
    expect((await fx.core.call('personas.list', {})).map((p) => p.id)).not.toContain('teacher');
    expect((await fx.core.call('personas.list', {})).map((p) => p.id)).not.toContain('chef');
  });

  it('removes the persona and every row it holds, in every table, and returns the counts', async () => {
    const before = await counts('day-trader');
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const res = await fx.core.call('personas.delete', { id: 'day-trader', confirm: 'Day Trader' });
    expect(res.deleted).toEqual({ memories: 3, userModel: 1, knowledgeSources: 1, knowledgeChunks: 2, messages: 2 });
    expect(await counts('day-trader')).toEqual(Object.fromEntries(Object.keys(COUNTS).map((t) => [t, 0])));
    // the other personas are untouched
    expect((await counts('writer')).memories).toBe(3);
    expect((await fx.core.call('personas.list', {})).map((p) => p.id)).toEqual(['main', 'writer']);
  });

  it('empties main but keeps it', async () => {
    const res = await fx.core.call('personas.delete', { id: 'main', confirm: 'main' });
    expect(res.deleted.memories).toBe(3);
    expect(await counts('main')).toEqual({ ...Object.fromEntries(Object.keys(COUNTS).map((t) => [t, 0])), personas: 1 });
    expect((await counts('writer')).knowledge_chunks).toBe(2);
    // main still works afterwards
    expect((await fx.core.call('memories.write', { persona: 'main', content: 'fresh start' })).persona).toBe('main');
  });
});
