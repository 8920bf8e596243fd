import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import type { TestCore } from '../testing/core';
import { sanitiseClientName } from './client-name';
import { connectInMemory, isToolError, resultText } from '../testing/mcp-client';

let fx: EmbedFixture;
let core: TestCore;
let a: Client;

const count = async (persona: string) => (await core.call('memories.list', { persona, limit: 1 })).total;

beforeAll(async () => {
  // Embeddings from the fake server: recall embeds each query without waiting on the local model.
  fx = await makeEmbedFixture();
  core = fx.core;
  await core.call('personas.create', { name: 'Alpha' });
  await core.call('personas.create', { name: 'Beta' });
  a = await connectInMemory(core, { persona: 'alpha', readOnly: false }, 'Claude Desktop');
});

afterAll(async () => {
  await a?.close();
  await fx?.dispose();
});

describe('Hearth over MCP (SDK client, in memory)', () => {
  it('lists the ten tools with argument schemas and the two resources', async () => {
    const { tools } = await a.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_memory', 'add_memory', 'list_memories', 'get_memory', 'update_memory', 'supersede_memory', 'delete_memory',
      'get_user_model', 'update_user_model', 'delete_user_model',
    ]);
    const add = tools.find((t) => t.name === 'add_memory')!;
    expect(add.inputSchema.required).toEqual(['content']);
    expect(Object.keys(add.inputSchema.properties ?? {})).toEqual(['content', 'category', 'importance', 'day']);
    expect(tools.find((t) => t.name === 'delete_memory')!.annotations?.destructiveHint).toBe(true);
    const { resources } = await a.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['hearth://personas/alpha/user-model', 'hearth://personas/alpha/top-memories']);
  });

  it('adds a memory with origin mcp:<client>, then finds it with search_memory and in the app', async () => {
    const added = await a.callTool({ name: 'add_memory', arguments: { content: 'Booked the ferry to Skye for 12 June', category: 'travel', importance: 7 } });
    expect(isToolError(added), resultText(added)).toBe(false);
    const id = (added.structuredContent as { memory: { id: string } }).memory.id;
    const found = await a.callTool({ name: 'search_memory', arguments: { query: 'ferry Skye' } });
    expect(resultText(found)).toContain(`[memory ${id} · travel · imp=7`);
    const page = await core.call('memories.list', { persona: 'alpha', filters: { origin: 'mcp:Claude Desktop' } });
    expect(page.items.map((m) => [m.id, m.origin])).toEqual([[id, 'mcp:Claude Desktop']]);
  });

  it('adding a fact Hearth already holds in other words writes nothing and answers duplicateOf', async () => {
    const first = await a.callTool({ name: 'add_memory', arguments: { content: 'The user is allergic to peanuts.' } });
    const id = (first.structuredContent as { memory: { id: string } }).memory.id;
    const again = await a.callTool({ name: 'add_memory', arguments: { content: 'User: allergic to peanuts!' } });
    expect(isToolError(again), resultText(again)).toBe(false);
    expect(resultText(again)).toContain(`already saved as [memory ${id}]`);
    expect(again.structuredContent).toMatchObject({ duplicateOf: id, memory: { id } });
    const page = await core.call('memories.list', { persona: 'alpha', limit: 500 });
    expect(page.items.filter((m) => /peanut/i.test(m.content)).map((m) => m.id)).toEqual([id]);
  });

  it('search_memory narrows by category, importance and days, and refuses an importance outside 1–10', async () => {
    const w = (content: string, category: string, importance: number, day: string) => core.call('memories.write', { persona: 'alpha', content, category, importance, day });
    const work = await w('Lighthouse project kickoff with the design team', 'work', 9, '2026-03-02');
    const trip = await w('Lighthouse tour on the coast trip', 'travel', 3, '2026-05-20');
    const ids = async (args: Record<string, unknown>) => {
      const r = await a.callTool({ name: 'search_memory', arguments: { query: 'lighthouse', ...args } });
      expect(isToolError(r), resultText(r)).toBe(false);
      return (r.structuredContent as { hits: { id: string }[] }).hits.map((h) => h.id);
    };
    // Other memories of this persona may be recalled too (importance, recency); these two are the ones that match.
    const has = (got: string[], want: string[], not: string[]) => {
      expect(got).toEqual(expect.arrayContaining(want));
      for (const id of not) expect(got).not.toContain(id);
    };
    has(await ids({}), [work.id, trip.id], []);
    has(await ids({ category: 'travel' }), [trip.id], [work.id]);
    has(await ids({ min_importance: 5 }), [work.id], [trip.id]);
    has(await ids({ from_day: '2026-04-01', to_day: '2026-06-30' }), [trip.id], [work.id]);
    has(await ids({ category: 'travel', min_importance: 5 }), [], [work.id, trip.id]);
    const bad = await a.callTool({ name: 'search_memory', arguments: { query: 'lighthouse', min_importance: 11 } });
    expect(isToolError(bad)).toBe(true);
  });

  it('gets, corrects and deletes one memory, and reads and updates the user model', async () => {
    const m = await core.call('memories.write', { persona: 'alpha', content: 'Started learning the cello', importance: 4 });
    expect(resultText(await a.callTool({ name: 'get_memory', arguments: { id: m.id } }))).toContain('Started learning the cello');
    const upd = await a.callTool({ name: 'update_memory', arguments: { id: m.id, content: 'Started learning the viola', importance: 6 } });
    expect(resultText(upd)).toContain('imp=6');
    expect((await core.call('memories.get', { id: m.id })).content).toBe('Started learning the viola');
    expect(isToolError(await a.callTool({ name: 'delete_memory', arguments: { id: m.id } }))).toBe(false);
    await expect(core.call('memories.get', { id: m.id })).rejects.toThrow(/no memory/);

    const um = await a.callTool({ name: 'update_user_model', arguments: { dimension: 'preferences', content: 'Prefers short answers', confidence: 8 } });
    expect(isToolError(um), resultText(um)).toBe(false);
    expect(resultText(await a.callTool({ name: 'get_user_model', arguments: {} }))).toBe('- [preferences, conf=8] Prefers short answers');
    const res = await a.readResource({ uri: 'hearth://personas/alpha/user-model' });
    expect(res.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((res.contents[0] as { text: string }).text).toContain('`update_user_model`');
    expect((res.contents[0] as { text: string }).text).toContain('- [preferences, conf=8] Prefers short answers');
    const top = await a.readResource({ uri: 'hearth://personas/alpha/top-memories' });
    expect((top.contents[0] as { text: string }).text).toMatch(/- \[memory [0-9a-f-]{36} · travel · imp=7\] Booked the ferry to Skye/);
  });

  it('answers bad arguments with a tool error and writes nothing', async () => {
    const before = await count('alpha');
    const bad = [
      { name: 'add_memory', arguments: {} },
      { name: 'add_memory', arguments: { content: '   ' } },
      { name: 'add_memory', arguments: { content: 'x', importance: 11 } },
      { name: 'add_memory', arguments: { content: 'x', day: '2026-02-30' } },
      { name: 'add_memory', arguments: { content: 'x', persona: 'beta' } },
      { name: 'update_memory', arguments: { id: 'not-a-uuid', content: 'y' } },
      { name: 'delete_memory', arguments: { id: '00000000-0000-4000-8000-000000000000' } },
      { name: 'update_user_model', arguments: { dimension: 'a[b]', content: 'z' } },
      { name: 'delete_everything', arguments: {} },
    ];
    for (const call of bad) {
      const r = await a.callTool(call);
      expect(isToolError(r), JSON.stringify(call)).toBe(true);
      expect(resultText(r)).toMatch(/^Error: /);
    }
    expect(await count('alpha')).toBe(before);
    expect(await core.call('userModel.list', { persona: 'alpha' })).toHaveLength(1);
  });

  it('refuses every write on a read-only connection, with a clear error, and lists only the tools that read', async () => {
    const ro = await connectInMemory(core, { persona: 'alpha', readOnly: true }, 'reader');
    expect((await ro.listTools()).tools.map((t) => t.name)).toEqual(['search_memory', 'list_memories', 'get_memory', 'get_user_model']);
    expect(ro.getInstructions()).toMatch(/read-only/);
    expect(ro.getInstructions()).not.toMatch(/add_memory|supersede_memory/);
    const m = (await core.call('memories.list', { persona: 'alpha', limit: 1 })).items[0]!;
    const writes = [
      { name: 'add_memory', arguments: { content: 'should not land' } },
      { name: 'update_memory', arguments: { id: m.id, content: 'changed' } },
      { name: 'delete_memory', arguments: { id: m.id } },
      { name: 'update_user_model', arguments: { dimension: 'goals', content: 'nope' } },
      { name: 'supersede_memory', arguments: { id: m.id, content: 'nope' } },
      { name: 'delete_user_model', arguments: { dimension: 'preferences' } },
    ];
    const before = await count('alpha');
    for (const call of writes) {
      const r = await ro.callTool(call);
      expect(isToolError(r)).toBe(true);
      expect(resultText(r)).toMatch(/read-only.*nothing was changed/);
    }
    expect(await count('alpha')).toBe(before);
    expect((await core.call('memories.get', { id: m.id })).content).toBe(m.content);
    expect(isToolError(await ro.callTool({ name: 'search_memory', arguments: { query: 'ferry' } }))).toBe(false);
    await ro.close();
  });

  it('logs every call, and a client switched off is refused until switched on again', async () => {
    const c = await connectInMemory(core, { persona: 'alpha', readOnly: false }, 'cursor');
    await c.callTool({ name: 'list_memories', arguments: {} });
    await c.callTool({ name: 'add_memory', arguments: { importance: 0 } });
    const log = await core.call('mcp.calls', { client: 'cursor' });
    expect(log.map((l) => [l.tool, l.persona, l.ok])).toEqual([['add_memory', 'alpha', false], ['list_memories', 'alpha', true]]);
    expect(log[0]!.error).toMatch(/Invalid arguments for add_memory/);

    await core.call('mcp.setClientEnabled', { name: 'cursor', enabled: false });
    const before = await count('alpha');
    const refused = await c.callTool({ name: 'add_memory', arguments: { content: 'while switched off' } });
    expect(resultText(refused)).toMatch(/switched off "cursor"/);
    expect(await count('alpha')).toBe(before);
    await expect(c.readResource({ uri: 'hearth://personas/alpha/user-model' })).rejects.toThrow(/switched off/);
    // Other clients are not affected.
    expect(isToolError(await a.callTool({ name: 'list_memories', arguments: {} }))).toBe(false);
    await core.call('mcp.setClientEnabled', { name: 'cursor', enabled: true });
    expect(isToolError(await c.callTool({ name: 'list_memories', arguments: {} }))).toBe(false);

    const clients = await core.call('mcp.clients', {});
    const cursor = clients.find((x) => x.name === 'cursor')!;
    expect(cursor).toMatchObject({ enabled: true, version: '1.0.0', lastCall: { tool: 'list_memories', persona: 'alpha', ok: true } });
    expect(cursor.calls).toBe(5);
    await c.close();
  });

  it('only the user may switch clients (an MCP actor is refused)', async () => {
    const res = await core.dispatch('mcp.setClientEnabled', { name: 'cursor', enabled: false }, { actor: 'mcp:cursor' });
    expect(res).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('keeps a sanitised client name in origins and the log', () => {
    expect(sanitiseClientName('Claude Desktop')).toBe('Claude Desktop');
    expect(sanitiseClientName('evil\nname<script>')).toBe('evil-name-script-');
    expect(sanitiseClientName('  ')).toBe('unknown');
    expect(sanitiseClientName(42)).toBe('unknown');
    expect(sanitiseClientName('é'.repeat(100))).toMatch(/^[A-Za-z0-9._ -]{1,64}$/);
  });
});
