import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as app from '../../shared/contract/results/app';
import * as chat from '../../shared/contract/results/chat';
import * as jobs from '../../shared/contract/results/jobs';
import * as knowledge from '../../shared/contract/results/knowledge';
import * as memories from '../../shared/contract/results/memories';
import * as personas from '../../shared/contract/results/personas';
import * as recall from '../../shared/contract/results/recall';
import * as trash from '../../shared/contract/results/trash';
import { memoryShape } from '../../shared/contract/memories';
import * as mcp from '../../shared/contract/results/mcp';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { connectInMemory } from '../testing/mcp-client';
import { testBackend } from '../testing/server';
import { waitForJobState } from '../testing/wait-jobs';

// The result types are derived from the schemas in src/shared/contract/results (docs/contract.md),
// and the core is type-checked against them; what it answers at run time is not. These calls go
// through a real core and hold each answer to its schema, exactly: no field missing, none extra,
// none of another kind (a Date where the contract says an ISO string, a bigint count).

let f: ChatFixture;
beforeAll(async () => {
  f = await chatFixture();
});
afterAll(async () => {
  await f?.dispose();
});

/** The schema's issues for `value`, as `path: message` lines; [] when it conforms. */
function problems(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/** `problems` for every item of a list answer. */
const list = (s: z.ZodType) => ({ check: (v: unknown[]) => v.flatMap((x) => problems(s, x)) });

describe('what the core answers matches the result schemas', () => {
  it('personas, memories, their history, activity, search and duplicates', async () => {
    const { core } = f;
    const p = await core.call('personas.create', { name: 'Results' });
    expect(problems(personas.persona, p)).toEqual([]);
    expect(list(personas.persona).check(await core.call('personas.list', {}))).toEqual([]);
    expect(problems(personas.personaUpdate, await core.call('personas.update', { id: p.id, mcp: true }))).toEqual([]);

    const a = await core.call('memories.write', { persona: p.id, content: 'I keep bees on the roof', category: 'home' });
    await core.call('memories.write', { persona: p.id, content: 'I keep bees on the roof.' });
    const upd = await core.call('memories.update', { id: a.id, importance: 8 });
    expect(problems(memoryShape, upd)).toEqual([]);
    expect(problems(memories.memoryPage, await core.call('memories.list', { persona: p.id }))).toEqual([]);
    const history = await core.call('memories.history', { id: a.id });
    expect(history.length).toBe(2);
    expect(list(memories.memoryVersion).check(history)).toEqual([]);

    const um = await core.call('userModel.upsert', { persona: p.id, dimension: 'hobbies', content: 'beekeeping' });
    expect(problems(memories.userModelEntry, um)).toEqual([]);
    expect(list(memories.userModelVersion).check(await core.call('userModel.history', { persona: p.id, dimension: 'hobbies' }))).toEqual([]);

    const activity = await core.call('activity.list', { persona: p.id });
    expect(new Set(activity.items.map((i) => i.kind))).toEqual(new Set(['memory', 'userModel']));
    expect(list(memories.activityItem).check(activity.items)).toEqual([]);

    const found = await core.call('memories.search', { persona: p.id, query: 'bees' });
    expect(found.hits.length).toBeGreaterThan(0);
    expect(problems(recall.memorySearchResult, found)).toEqual([]);

    const groups = await core.call('memories.duplicates', { persona: p.id });
    expect(groups.length).toBe(1);
    expect(list(memories.duplicateGroup).check(groups)).toEqual([]);
    const similar = await core.call('memories.similar', { persona: p.id, content: 'I keep bees on the roof' });
    expect(similar).not.toBeNull();
    expect(problems(memories.similarMemory, similar)).toEqual([]);

    const preview = await core.call('memories.importFrom', { persona: p.id, format: 'text', text: '- I keep bees on the roof\n- I like tea', dryRun: true });
    expect(preview.items.map((i) => i.status)).toEqual(['duplicate', 'added']);
    expect(problems(memories.importFromResult, preview)).toEqual([]);

    await core.call('memories.delete', { id: a.id });
    await core.call('userModel.delete', { persona: p.id, dimension: 'hobbies' });
    const bin = await core.call('trash.list', { persona: p.id });
    expect(bin.map((t) => t.kind).sort()).toEqual(['memory', 'user_model']);
    expect(list(trash.trashItem).check(bin)).toEqual([]);
  });

  it('knowledge, recall over it, and the jobs that ingested it', async () => {
    const { core } = f;
    const p = await core.call('personas.create', { name: 'Results knowledge' });
    const text = 'Lyon lies where the Rhône meets the Saône.\n\nIts old town is on the west bank.';
    const { jobId } = await core.call('knowledge.ingest', {
      persona: p.id,
      name: 'lyon.md',
      dataBase64: Buffer.from(text).toString('base64'),
    });
    await waitForJobState(core, jobId, 'completed');
    const sources = await core.call('knowledge.listSources', { persona: p.id });
    expect(sources.map((s) => s.source)).toEqual(['lyon.md']);
    expect(list(knowledge.knowledgeSource).check(sources)).toEqual([]);

    const hits = await core.call('recall', { persona: p.id, query: 'where do the rivers meet' });
    expect(hits.some((h) => h.kind === 'knowledge')).toBe(true);
    expect(list(recall.recallHit).check(hits)).toEqual([]);

    const summary = await core.call('jobs.list', { persona: p.id });
    expect(summary.jobs.some((j) => j.id === jobId)).toBe(true);
    expect(problems(jobs.jobsSummary, summary)).toEqual([]);
  });

  it('conversations, and what the app says about itself', async () => {
    const { core } = f;
    const p = await core.call('personas.create', { name: 'Results chat' });
    const c = await core.call('conversations.create', { persona: p.id, title: 'Trip' });
    expect(problems(chat.conversationInfo, c)).toEqual([]);
    expect(list(chat.conversationInfo).check(await core.call('conversations.list', { persona: p.id }))).toEqual([]);
    expect(problems(chat.chatPrompt, await core.call('chat.prompt', { persona: p.id }))).toEqual([]);

    f.fake.push(
      { toolCalls: [{ name: 'memory', arguments: '{"action":"write","content":"Planning a trip to Lyon in May","importance":6}' }] },
      { text: 'Noted: Lyon in May.' },
    );
    const reply = await core.call('chat.send', { persona: p.id, conversation: c.id, text: 'I am planning a trip to Lyon in May' });
    expect(reply.content).toBe('Noted: Lyon in May.');
    expect(problems(chat.chatMessage, reply)).toEqual([]);
    const past = await core.call('chat.history', { persona: p.id, conversation: c.id });
    expect(past.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(list(chat.chatMessage).check(past.messages)).toEqual([]);
    const hits = await core.call('conversations.search', { persona: p.id, query: 'Lyon' });
    expect(hits.length).toBeGreaterThan(0);
    expect(list(chat.conversationHit).check(hits)).toEqual([]);

    expect(problems(app.appInfo, await core.call('app.info', {}))).toEqual([]);
    expect(problems(app.databaseView, await core.call('database.get', {}))).toEqual([]);
  });

  it('the MCP clients, their call log and the connection snippets', async () => {
    const { core } = f;
    const p = await core.call('personas.create', { name: 'Results mcp' });
    const client = await connectInMemory(core, { persona: p.id, readOnly: false }, 'Results Client');
    try {
      await client.callTool({ name: 'add_memory', arguments: { content: 'Prefers window seats' } });
    } finally {
      await client.close();
    }
    const clients = await core.call('mcp.clients', {});
    expect(clients.map((c) => c.name)).toContain('Results Client');
    expect(list(mcp.mcpClient).check(clients)).toEqual([]);
    const calls = await core.call('mcp.calls', { client: 'Results Client' });
    expect(calls.map((c) => c.tool)).toContain('add_memory');
    expect(list(mcp.mcpCall).check(calls)).toEqual([]);
    expect(problems(mcp.mcpConnectionInfo, await core.call('mcp.connectionInfo', { persona: p.id }))).toEqual([]);
  });

  it.skipIf(testBackend() === 'server')('backups and the integrity check (a data folder\'s own; a server has its own tools)', async () => {
    const { core } = f;
    expect(problems(app.integrityResult, await core.call('data.checkIntegrity', {}))).toEqual([]);
    expect(problems(app.backupInfo, await core.call('backups.create', {}))).toEqual([]);
  });
});
