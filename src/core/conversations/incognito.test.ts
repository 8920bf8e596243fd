import { readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { templateCopy } from '../testing/core';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { installChatRoutes } from '../testing/fake-openai/chat';
import { startFakeServer } from '../testing/fake-openai/server';

let f: ChatFixture;
beforeAll(async () => {
  // A review after every turn: an incognito turn must still trigger none.
  f = await chatFixture({ reviewEvery: 1 });
});
afterAll(async () => {
  await f?.dispose();
});

const WRITE_CALLS = [
  { name: 'memory', arguments: JSON.stringify({ action: 'write', content: 'Planning a surprise party for Sam on 4 May', importance: 8 }) },
  { name: 'user_model_write', arguments: JSON.stringify({ dimension: 'goals', content: 'Throw Sam a surprise party' }) },
  { name: 'knowledge_ingest', arguments: JSON.stringify({ text: 'Guest list: Ana, Bo', source: 'guests' }) },
];

describe('an incognito chat', () => {
  it('reads the persona’s memory but offers no writing tool, refuses one called anyway, and queues no review', async () => {
    const p = (await f.core.call('personas.create', { name: 'Party' })).id;
    await f.core.call('memories.write', { persona: p, content: 'Sam likes chocolate cake' });
    await f.core.call('userModel.upsert', { persona: p, dimension: 'baseline', content: 'Lives in Lyon' });
    const conv = await f.core.call('conversations.create', { persona: p, incognito: true });
    expect(conv.incognito).toBe(true);
    f.fake.reset();
    f.fake.push({ toolCalls: WRITE_CALLS }, { text: 'Noted for this chat only.' });

    await f.core.call('chat.send', { persona: p, conversation: conv.id, text: 'I am planning a surprise party for Sam, remember that' });

    const first = f.fake.requests[0]!;
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(['recall', 'user_model_history']);
    const system = first.messages[0]!.content ?? '';
    expect(system).toContain('Sam likes chocolate cake'); // memories are read as usual
    expect(system).toContain('Lives in Lyon');
    expect(system).toContain('This chat is incognito');
    const results = f.fake.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toHaveLength(3);
    for (const r of results) expect(r).toMatch(/^Error: \w+ is not available: this is an incognito chat, which saves nothing/);

    expect((await f.core.call('memories.list', { persona: p })).items.map((m) => m.content)).toEqual(['Sam likes chocolate cake']);
    expect((await f.core.call('userModel.list', { persona: p })).map((e) => e.dimension)).toEqual(['baseline']);
    expect(await f.core.call('knowledge.listSources', { persona: p })).toEqual([]);
    const jobs = (await f.core.call('jobs.list', { limit: 500 })).jobs.filter((j) => j.persona === p && j.queue !== 'embeddings');
    expect(jobs).toEqual([]);
  });

  it('is nobody’s current conversation, is left out of exports, and is deleted when closed', async () => {
    const p = (await f.core.call('personas.create', { name: 'Close' })).id;
    const normal = await f.core.call('conversations.create', { persona: p });
    await f.core.call('chat.send', { persona: p, conversation: normal.id, text: 'an ordinary question' });
    const secret = await f.core.call('conversations.create', { persona: p, incognito: true });
    await f.core.call('chat.send', { persona: p, conversation: secret.id, text: 'a private question' });

    // A caller naming no conversation (MCP, older clients) gets the ordinary one.
    expect((await f.core.call('chat.history', { persona: p })).conversation).toBe(normal.id);
    const exported = await f.core.call('personas.export', { id: p });
    const file = gunzipSync(readFileSync(exported.path!)).toString('utf8');
    expect(file).toContain('an ordinary question');
    expect(file).not.toContain('a private question');
    expect(file.split('\n').filter((l) => l.startsWith('{"type":"conversation"'))).toHaveLength(1);

    expect(await f.core.call('conversations.close', { persona: p, id: normal.id })).toEqual({ deleted: false });
    expect(await f.core.call('conversations.close', { persona: p, id: secret.id })).toEqual({ deleted: true });
    expect((await f.core.call('conversations.list', { persona: p })).map((c) => c.id)).toEqual([normal.id]);
    const { rows } = await f.core.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1', [secret.id]);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('after a stop', () => {
  it('an incognito chat left open is gone when Hearth starts again (PGlite reopened)', async () => {
    const server = await startFakeServer();
    installChatRoutes(server);
    const dataDir = await templateCopy();
    try {
      let core = await createCore({ dataDir, dailyBackups: false });
      await core.call('settings.set', { chat: { baseUrl: server.baseURL, model: 'fake-chat' } });
      const kept = await core.call('conversations.create', { persona: 'main' });
      await core.call('chat.send', { persona: 'main', conversation: kept.id, text: 'keep this one' });
      const gone = await core.call('conversations.create', { persona: 'main', incognito: true });
      await core.call('chat.send', { persona: 'main', conversation: gone.id, text: 'forget this one' });
      expect((await core.call('conversations.list', { persona: 'main' })).map((c) => c.id).sort()).toEqual([kept.id, gone.id].sort());
      await core.close(); // the window was never closed: no conversations.close

      core = await createCore({ dataDir, dailyBackups: false });
      try {
        expect((await core.call('conversations.list', { persona: 'main' })).map((c) => c.id)).toEqual([kept.id]);
        const { rows } = await core.ctx.db.query<{ content: string }>('SELECT content FROM messages ORDER BY id');
        expect(rows.map((r) => r.content)).not.toContain('forget this one');
        expect(rows.map((r) => r.content)).toContain('keep this one');
        expect((await core.call('conversations.search', { persona: 'main', query: 'forget' })).length).toBe(0);
      } finally {
        await core.close();
      }
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
