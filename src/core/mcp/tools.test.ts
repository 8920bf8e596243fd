import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEmbedFixture, type EmbedFixture } from '../testing/embed-fixture';
import type { TestCore } from '../testing/core';
import { connectInMemory, isToolError, resultText } from '../testing/mcp-client';

// What a model reads in tools/list, and the tools added for what the app can already do (SDK client, in memory).
let fx: EmbedFixture;
let core: TestCore;
let c: Client;

beforeAll(async () => {
  fx = await makeEmbedFixture();
  core = fx.core;
  await core.call('personas.create', { name: 'Gamma' });
  c = await connectInMemory(core, { persona: 'gamma', readOnly: false }, 'schema-reader');
});

afterAll(async () => {
  await c?.close();
  await fx?.dispose();
});

type Schema = { type?: string; description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

describe('MCP tools as a model sees them', () => {
  it('every tool has a described property for each argument, an output schema and honest annotations', async () => {
    const { tools } = await c.listTools();
    for (const t of tools) {
      for (const [key, prop] of Object.entries((t.inputSchema.properties ?? {}) as Record<string, Schema>)) {
        expect(prop.description, `${t.name}.${key}`).toMatch(/\w{3}/);
      }
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.openWorldHint, t.name).toBe(false);
    }
    const hint = (name: string) => tools.find((t) => t.name === name)!.annotations!;
    expect(hint('search_memory')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(hint('add_memory')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(hint('delete_memory')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hint('delete_user_model')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const search = tools.find((t) => t.name === 'search_memory')!.inputSchema.properties as Record<string, Schema>;
    expect(search.date!.description).toMatch(/from_day\/to_day/);
  });

  it('list_memories pages with a cursor and filters by category, origin and days', async () => {
    const w = (content: string, category: string, day: string) => core.call('memories.write', { persona: 'gamma', content, category, day });
    for (let i = 1; i <= 5; i++) await w(`Garden note ${i}`, 'garden', `2026-04-0${i}`);
    await w('Dentist check-up', 'health', '2026-04-03');
    const viaMcp = await c.callTool({ name: 'add_memory', arguments: { content: 'Planted tulips by the gate', category: 'garden', day: '2026-04-09' } });
    expect(isToolError(viaMcp), resultText(viaMcp)).toBe(false);

    type Page = { total: number; memories: { content: string; origin: string }[]; nextCursor: string | null };
    const list = async (args: Record<string, unknown>) => {
      const r = await c.callTool({ name: 'list_memories', arguments: args });
      expect(isToolError(r), resultText(r)).toBe(false);
      return r.structuredContent as Page;
    };
    const seen: string[] = [];
    let page = await list({ limit: 3, category: 'garden' });
    expect(page.total).toBe(6);
    for (;;) {
      seen.push(...page.memories.map((m) => m.content));
      if (!page.nextCursor) break;
      page = await list({ limit: 3, category: 'garden', cursor: page.nextCursor });
    }
    expect(seen).toEqual(['Planted tulips by the gate', 'Garden note 5', 'Garden note 4', 'Garden note 3', 'Garden note 2', 'Garden note 1']);
    expect((await list({ origin: 'mcp:schema-reader' })).memories.map((m) => m.content)).toEqual(['Planted tulips by the gate']);
    expect((await list({ from_day: '2026-04-02', to_day: '2026-04-03' })).memories.map((m) => m.content).sort()).toEqual([
      'Dentist check-up', 'Garden note 2', 'Garden note 3',
    ]);
  });

  it('search results carry the score and a strength word', async () => {
    const r = await c.callTool({ name: 'search_memory', arguments: { query: 'tulips planted by the gate' } });
    const hits = (r.structuredContent as { hits: { content: string; score: number; strength: string }[] }).hits;
    const top = hits[0]!;
    expect(top.content).toBe('Planted tulips by the gate');
    expect(top.strength).toBe('strong');
    expect(resultText(r).split('\n')[0]).toMatch(/\(strong match, score \d\.\d{3}\) Planted tulips/);
  });

  it('supersede_memory saves the new fact and keeps the old one as history, linked', async () => {
    const old = await core.call('memories.write', { persona: 'gamma', content: 'Lives on Elm Street', category: 'home', importance: 7 });
    const r = await c.callTool({ name: 'supersede_memory', arguments: { id: old.id, content: 'Moved to Birch Lane in May 2026' } });
    expect(isToolError(r), resultText(r)).toBe(false);
    const { memory, supersedes } = r.structuredContent as { memory: { id: string; category: string; importance: number }; supersedes: string };
    expect(supersedes).toBe(old.id);
    expect(memory).toMatchObject({ category: 'home', importance: 7 });
    expect(resultText(r)).toMatch(/supersedes memory .* kept as history/);
    const before = await core.call('memories.get', { id: old.id });
    expect(before.content).toBe('Lives on Elm Street');
    expect(before).toMatchObject({ supersededBy: memory.id });

    const missing = await c.callTool({ name: 'supersede_memory', arguments: { id: '00000000-0000-4000-8000-000000000000', content: 'x' } });
    expect(resultText(missing)).toMatch(/no memory/);
  });

  it('delete_user_model removes exactly the one dimension named', async () => {
    await core.call('userModel.upsert', { persona: 'gamma', dimension: 'goals', content: 'Run a half marathon' });
    await core.call('userModel.upsert', { persona: 'gamma', dimension: 'preferences', content: 'Tea, not coffee' });
    const r = await c.callTool({ name: 'delete_user_model', arguments: { dimension: 'goals' } });
    expect(r.structuredContent).toEqual({ dimension: 'goals', deleted: true });
    expect((await core.call('userModel.list', { persona: 'gamma' })).map((e) => e.dimension)).toEqual(['preferences']);
    const again = await c.callTool({ name: 'delete_user_model', arguments: { dimension: 'goals' } });
    expect(resultText(again)).toMatch(/no dimension "goals"; nothing was changed/);
    expect(isToolError(await c.callTool({ name: 'delete_user_model', arguments: {} }))).toBe(true);
  });

  it('an unknown persona still lists its tools; every call answers which personas exist', async () => {
    const lost = await connectInMemory(core, { persona: 'nope', readOnly: false }, 'lost');
    expect((await lost.listTools()).tools).toHaveLength(10);
    const r = await lost.callTool({ name: 'list_memories', arguments: {} });
    expect(isToolError(r)).toBe(true);
    expect(resultText(r)).toBe(
      'Error: Hearth has no persona "nope" (it has: gamma, main). Change the persona in this connection’s configuration (--persona or ?persona=), then restart the connection.',
    );
    await lost.close();
  });

  it('a protocol error reads with one prefix', async () => {
    await expect(c.readResource({ uri: 'hearth://personas/other/top-memories' })).rejects.toThrow(/^MCP error -32602: No resource hearth:\/\/personas\/other\/top-memories on this connection\.$/);
  });

  it('a subscribed client is told when the top-memories block changes, and reads the new line with its id', async () => {
    const uri = 'hearth://personas/gamma/top-memories';
    const updated = new Promise<string>((resolve) => c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
    await c.subscribeResource({ uri });
    const r = await c.callTool({ name: 'add_memory', arguments: { content: 'Signed the lease for the allotment', importance: 10 } });
    const id = (r.structuredContent as { memory: { id: string } }).memory.id;
    expect(await updated).toBe(uri);
    const text = ((await c.readResource({ uri })).contents[0] as { text: string }).text;
    expect(text).toContain(`- [memory ${id} · general · imp=10] Signed the lease for the allotment`);
    await c.unsubscribeResource({ uri });
  });
});
