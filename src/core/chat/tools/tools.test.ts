import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestCore } from '../../testing/core';
import { type ChatFixture, chatFixture } from '../../testing/chat-fixture';
import { runTool, type ToolScope } from './run';

let f: ChatFixture;
let core: TestCore;
let scope: ToolScope;
beforeAll(async () => {
  // The fixture's fake embedder keeps the local model out of this test.
  f = await chatFixture();
  core = f.core;
  const { rows } = await core.ctx.db.query<{ id: string }>(`INSERT INTO conversations (persona) VALUES ('main') RETURNING id`);
  scope = { persona: 'main', conversationId: rows[0]!.id };
});
afterAll(async () => {
  await f.dispose();
});

it('memory write then delete by id, scoped to the persona', async () => {
  const w = await runTool(core.ctx, scope, 'memory', '{"action":"write","content":"Bought a red bicycle.","category":"journal"}');
  expect(w.ok).toBe(true);
  const id = w.memoryIds[0]!;
  expect(w.content).toContain(id);
  const m = await core.call('memories.get', { id });
  expect(m).toMatchObject({ origin: 'explicit', importance: 5, conversationId: scope.conversationId });
  const d = await runTool(core.ctx, scope, 'memory', JSON.stringify({ action: 'delete', id }));
  expect(d).toMatchObject({ ok: true, content: `Deleted memory ${id}.` });
  expect((await core.call('memories.list', { persona: 'main' })).total).toBe(0);
});

it('recall answers tagged hits as text; knowledge_ingest of text makes it recallable', async () => {
  await runTool(core.ctx, scope, 'memory', '{"action":"write","content":"Planted tomatoes in the garden.","category":"garden","importance":7}');
  const ing = await runTool(core.ctx, scope, 'knowledge_ingest', '{"text":"Tomatoes need six hours of sun a day.","source":"garden-notes"}');
  expect(ing).toMatchObject({ ok: true });
  expect(ing.content).toMatch(/Ingested "garden-notes"/);
  const r = await runTool(core.ctx, scope, 'recall', '{"query":"tomatoes","limit":5}');
  expect(r.ok).toBe(true);
  expect(r.content).toMatch(/^\[memory [0-9a-f-]{36} · garden · imp=7 · \d{4}-\d{2}-\d{2}\] Planted tomatoes in the garden\.$/m);
  expect(r.content).toMatch(/^\[knowledge garden-notes#0\] Tomatoes need six hours of sun a day\.$/m);
});

it('user_model_write upserts one dimension', async () => {
  expect((await runTool(core.ctx, scope, 'user_model_write', '{"dimension":"goals","content":"Run a marathon"}')).userModelChanged).toBe(true);
  await runTool(core.ctx, scope, 'user_model_write', '{"dimension":"goals","content":"Run two marathons","confidence":8}');
  const model = await core.call('userModel.list', { persona: 'main' });
  expect(model.map((e) => [e.dimension, e.content, e.confidence])).toEqual([['goals', 'Run two marathons', 8]]);
});

it('memory write and supersede of a fact already saved in other words write nothing and name the saved one', async () => {
  const first = await runTool(core.ctx, scope, 'memory', '{"action":"write","content":"The user is allergic to peanuts."}');
  const id = first.memoryIds[0]!;
  const again = await runTool(core.ctx, scope, 'memory', '{"action":"write","content":"User: allergic to peanuts!"}');
  expect(again).toMatchObject({ ok: true, memoryIds: [] });
  expect(again.content).toContain(`already saved as [memory ${id}]`);

  const lyon = (await runTool(core.ctx, scope, 'memory', '{"action":"write","content":"User lives in Lyon."}')).memoryIds[0]!;
  const sup = await runTool(core.ctx, scope, 'memory', JSON.stringify({ action: 'supersede', id: lyon, content: 'Allergic to peanuts, the user is.' }));
  expect(sup.content).toContain(`already saved as [memory ${id}]`);
  expect((await core.call('memories.get', { id: lyon })).supersededBy).toBeNull();
  const moved = await runTool(core.ctx, scope, 'memory', JSON.stringify({ action: 'supersede', id: lyon, content: 'User lives in Grenoble.' }));
  expect((await core.call('memories.get', { id: lyon })).supersededBy).toBe(moved.memoryIds[0]);
  const peanuts = (await core.call('memories.list', { persona: 'main', limit: 500 })).items.filter((m) => /peanut/i.test(m.content));
  expect(peanuts.map((m) => m.id)).toEqual([id]);
});
