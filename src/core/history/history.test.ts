import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryVersion } from '../../shared/api';
import { flushSlice } from '../chat/compaction/flush';
import { chatProviderFrom } from '../providers/llm/config';
import { loadChatSettings } from '../settings/chat-settings';
import { ensureConversation } from '../chat/conversation';
import { importMemories } from '../memories/import';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { connectInMemory, resultText } from '../testing/mcp-client';
import { waitForJobs } from '../testing/wait-jobs';

let f: ChatFixture;
beforeAll(async () => {
  f = await chatFixture({ reviewEvery: 1000 });
}, 180_000);
afterAll(async () => {
  await f?.dispose();
});

const isReview = (body: { response_format?: unknown }) => body.response_format !== undefined;
const history = (id: string) => f.core.call('memories.history', { id });
const idIn = (text: string) => /memory ([0-9a-f-]{36})/.exec(text)![1]!;
const last = (vs: MemoryVersion[]) => vs[vs.length - 1]!;

describe('versions: every actor, every path', () => {
  it('the user (API): write, edit each field, delete — each a version with actor user; a no-op edit writes none', async () => {
    const m = await f.core.call('memories.write', { persona: 'main', content: 'Lives in Seoul', category: 'home', day: '2026-03-01' });
    await f.core.call('memories.update', { id: m.id, content: 'Lives in Seoul, Mapo district' });
    await f.core.call('memories.update', { id: m.id, category: 'place' });
    await f.core.call('memories.update', { id: m.id, importance: 8 });
    await f.core.call('memories.update', { id: m.id, day: '2026-03-02' });
    await f.core.call('memories.update', { id: m.id, importance: 8 }); // nothing changes
    let vs = await history(m.id);
    expect(vs.map((v) => [v.version, v.change, v.actor])).toEqual([
      [1, 'create', 'user'],
      [2, 'update', 'user'],
      [3, 'update', 'user'],
      [4, 'update', 'user'],
      [5, 'update', 'user'],
    ]);
    expect(vs[0]).toMatchObject({ content: 'Lives in Seoul', category: 'home', importance: 5, day: '2026-03-01' });
    expect(last(vs)).toMatchObject({ content: 'Lives in Seoul, Mapo district', category: 'place', importance: 8, day: '2026-03-02', validTo: null });
    // each version is valid until the next began
    for (let i = 0; i < vs.length - 1; i++) expect(vs[i]!.validTo).toBe(vs[i + 1]!.validFrom);

    const del = await f.core.call('memories.delete', { id: m.id });
    vs = await history(m.id);
    expect(last(vs)).toMatchObject({ version: 6, change: 'delete', actor: 'user', content: 'Lives in Seoul, Mapo district' });
    expect(last(vs).validTo).toBe(last(vs).validFrom); // no current state once deleted
    await f.core.call('memories.restore', { memory: del.memory });
    expect(last(await history(m.id))).toMatchObject({ version: 7, change: 'undelete', actor: 'user', validTo: null });
  });

  it('the user model: upsert, the same value again (no version), delete — history keeps all, the block shows only the current value', async () => {
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'baseline', content: 'Lives in Seoul', confidence: 7 });
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'baseline', content: 'Lives in Seoul', confidence: 7 });
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'baseline', content: 'Moved to Berlin', confidence: 9 });
    expect(await f.core.call('userModel.block', { persona: 'main' })).toContain('- [baseline, conf=9] Moved to Berlin');
    expect(await f.core.call('userModel.block', { persona: 'main' })).not.toContain('Seoul');
    await f.core.call('userModel.delete', { persona: 'main', dimension: 'baseline' });
    const vs = await f.core.call('userModel.history', { persona: 'main', dimension: 'baseline' });
    expect(vs.map((v) => [v.version, v.change, v.content, v.actor])).toEqual([
      [1, 'upsert', 'Lives in Seoul', 'user'],
      [2, 'upsert', 'Moved to Berlin', 'user'],
      [3, 'delete', null, 'user'],
    ]);
    expect(vs[0]!.validTo).toBe(vs[1]!.validFrom);
    expect(vs[1]!.validTo).toBe(vs[2]!.validFrom);
  });

  it('the chat tools write versions as tool, with the conversation', async () => {
    const conv = await ensureConversation(f.core.ctx.db, 'main');
    f.fake.push(
      { toolCalls: [{ name: 'memory', arguments: JSON.stringify({ action: 'write', content: 'Started a pottery class', category: 'hobby' }) }] },
      { toolCalls: [{ name: 'user_model_write', arguments: JSON.stringify({ dimension: 'goals', content: 'Throw a vase', confidence: 8 }) }] },
      { text: 'Noted.' },
    );
    await f.core.call('chat.send', { persona: 'main', text: 'I started pottery; I want to throw a vase.' });
    const tool = f.core.ctx.db;
    const { rows } = await tool.query<{ memory_id: string }>(`SELECT memory_id FROM memory_versions WHERE content = 'Started a pottery class'`);
    expect(await history(rows[0]!.memory_id)).toMatchObject([{ version: 1, change: 'create', actor: 'tool', conversationId: conv.id }]);
    expect(await f.core.call('userModel.history', { persona: 'main', dimension: 'goals' })).toMatchObject([
      { version: 1, content: 'Throw a vase', actor: 'tool', conversationId: conv.id },
    ]);
  });

  it('the review and the flush write versions as review and flush', async () => {
    const conv = await ensureConversation(f.core.ctx.db, 'main');
    const review = {
      userModel: [{ dimension: 'preferences', content: 'Likes long walks', confidence: 9 }],
      memories: [{ category: 'trip', content: 'Booked a train to Lyon for May', importance: 6, confidence: 9, supersedes: [] }],
    };
    f.fake.fallback = (body) => (isReview(body) ? { text: JSON.stringify(review) } : { text: 'OK.' });
    await f.core.call('settings.set', { reviewEvery: 1 });
    await f.core.call('chat.send', { persona: 'main', text: 'Booked the Lyon train; I love long walks.' });
    await waitForJobs(f.core, 'memory_review');
    await f.core.call('settings.set', { reviewEvery: 1000 });
    const { rows } = await f.core.ctx.db.query<{ memory_id: string }>(`SELECT memory_id FROM memory_versions WHERE content = $1`, [review.memories[0]!.content]);
    expect(await history(rows[0]!.memory_id)).toMatchObject([{ change: 'create', actor: 'review', conversationId: conv.id }]);
    expect(await f.core.call('userModel.history', { persona: 'main', dimension: 'preferences' })).toMatchObject([
      { content: 'Likes long walks', actor: 'review', conversationId: conv.id },
    ]);

    f.fake.push({ text: JSON.stringify([{ category: 'work', content: 'Shipped the Q2 report', importance: 7 }]) });
    const provider = chatProviderFrom(await loadChatSettings(f.core.ctx), 'no-persona');
    const flushed = await flushSlice(f.core.ctx, provider, { persona: 'main', conversationId: conv.id }, 'User: shipped the Q2 report', AbortSignal.timeout(30_000));
    expect(flushed.problem).toBeNull();
    expect(await history(flushed.written[0]!)).toMatchObject([{ change: 'create', actor: 'flush', conversationId: conv.id }]);
  });

  it('imports write a first version as import', async () => {
    const r = await importMemories(f.core.ctx, 'main', [{ content: 'Imported: owns a bicycle', day: '2025-11-02' }]);
    expect(await history(r.ids[0]!)).toMatchObject([{ version: 1, change: 'create', actor: 'import', content: 'Imported: owns a bicycle', day: '2025-11-02' }]);
  });

  it('an MCP client writes versions as mcp:<its name>', async () => {
    const client = await connectInMemory(f.core, { persona: 'main', readOnly: false }, 'Claude Desktop');
    try {
      const added = resultText(await client.callTool({ name: 'add_memory', arguments: { content: 'Prefers window seats' } }));
      const id = idIn(added);
      await client.callTool({ name: 'update_memory', arguments: { id, content: 'Prefers aisle seats now' } });
      await client.callTool({ name: 'update_user_model', arguments: { dimension: 'travel', content: 'Flies twice a year' } });
      expect((await history(id)).map((v) => [v.change, v.actor])).toEqual([
        ['create', 'mcp:Claude Desktop'],
        ['update', 'mcp:Claude Desktop'],
      ]);
      expect(await f.core.call('userModel.history', { persona: 'main', dimension: 'travel' })).toMatchObject([{ actor: 'mcp:Claude Desktop' }]);
    } finally {
      await client.close();
    }
  });
});

describe('restore', () => {
  it('restoring a memory version brings its fields back as a new version; the text is embedded again', async () => {
    const m = await f.core.call('memories.write', { persona: 'main', content: 'Team lead at Acme', category: 'job', importance: 6 });
    await f.core.call('memories.update', { id: m.id, content: 'Staff engineer at Acme', importance: 7 });
    const back = await f.core.call('memories.restoreVersion', { id: m.id, version: 1 });
    expect(back).toMatchObject({ content: 'Team lead at Acme', importance: 6, embeddingStatus: 'pending' });
    expect(last(await history(m.id))).toMatchObject({ version: 3, change: 'restore', reason: 'restored version 1', actor: 'user' });
    expect(await f.core.dispatch('memories.restoreVersion', { id: m.id, version: 9 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('restoring a user-model version upserts it again; a deletion version cannot be restored', async () => {
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'feedback', content: 'Shorter answers', confidence: 6 });
    await f.core.call('userModel.upsert', { persona: 'main', dimension: 'feedback', content: 'More detail please', confidence: 8 });
    await f.core.call('userModel.delete', { persona: 'main', dimension: 'feedback' });
    expect(await f.core.dispatch('userModel.restoreVersion', { persona: 'main', dimension: 'feedback', version: 3 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_args' },
    });
    const e = await f.core.call('userModel.restoreVersion', { persona: 'main', dimension: 'feedback', version: 1 });
    expect(e).toMatchObject({ content: 'Shorter answers', confidence: 6 });
    const vs = await f.core.call('userModel.history', { persona: 'main', dimension: 'feedback' });
    expect(last(vs as never)).toMatchObject({ version: 4, change: 'restore', content: 'Shorter answers', reason: 'restored version 1' });
  });
});

describe('activity and persona deletion', () => {
  it('the activity log lists the latest changes newest first, filterable by actor and kind, paged', async () => {
    const all = await f.core.call('activity.list', { persona: 'main', limit: 500 });
    expect(all.items.length).toBeGreaterThan(20);
    const times = all.items.map((i) => i.validFrom);
    expect([...times].sort().reverse()).toEqual(times);
    const mcp = await f.core.call('activity.list', { persona: 'main', actorKind: 'mcp' });
    expect(mcp.items.map((i) => i.actor)).toEqual(['mcp:Claude Desktop', 'mcp:Claude Desktop', 'mcp:Claude Desktop']);
    const tools = await f.core.call('activity.list', { persona: 'main', actorKind: 'tool', kind: 'userModel' });
    expect(tools.items).toMatchObject([{ kind: 'userModel', dimension: 'goals', actor: 'tool' }]);
    // paging walks the same list without gaps or repeats
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof f.core.call<'activity.list'>>> = await f.core.call('activity.list', { persona: 'main', limit: 7, before });
      seen.push(...page.items.map((i) => `${i.kind}:${i.id}`));
      before = page.nextCursor;
    } while (before);
    expect(seen).toEqual(all.items.map((i) => `${i.kind}:${i.id}`));
  });

  it('deleting a persona removes its history; other personas keep theirs', async () => {
    await f.core.call('personas.create', { name: 'Trader' });
    const m = await f.core.call('memories.write', { persona: 'trader', content: 'Holds ten shares of ACME' });
    await f.core.call('memories.update', { id: m.id, content: 'Holds twenty shares of ACME' });
    await f.core.call('userModel.upsert', { persona: 'trader', dimension: 'goals', content: 'Retire early' });
    const mainBefore = (await f.core.call('activity.list', { persona: 'main', limit: 500 })).items.length;
    await f.core.call('personas.delete', { id: 'trader', confirm: 'Trader' });
    const { rows } = await f.core.ctx.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM memory_versions WHERE persona = 'trader') + (SELECT count(*) FROM user_model_versions WHERE persona = 'trader') AS n`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    expect((await f.core.call('activity.list', { persona: 'main', limit: 500 })).items.length).toBe(mainBefore);
    // main is emptied, not removed: its history goes too
    await f.core.call('personas.delete', { id: 'main', confirm: 'main' });
    expect((await f.core.call('activity.list', { persona: 'main' })).items).toEqual([]);
    // Each deletion is backed up first (a whole-database snapshot): slow on a loaded machine.
  }, 300_000);
});
