import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { enqueueJob } from '../jobs/enqueue';
import { isThisComputer } from '../providers/locality';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { connectInMemory, isToolError, resultText } from '../testing/mcp-client';
import { waitForJobState } from '../testing/wait-jobs';

describe('which base URLs are this computer', () => {
  it.each([
    ['http://127.0.0.1:11434/v1', true],
    ['http://127.8.9.10/v1', true],
    ['http://localhost:1234/v1', true],
    ['http://LOCALHOST./v1', true],
    ['http://127.0.0.1./v1', true],
    ['http://[::1]:8080/v1', true],
    ['http://[::ffff:127.0.0.1]/v1', true],
    ['http://0x7f.1/v1', true],
    ['https://api.openai.com/v1', false],
    ['http://0.0.0.0:11434/v1', false],
    ['http://[::]:11434/v1', false],
    ['http://192.168.1.5:11434/v1', false],
    ['http://[::ffff:10.0.0.1]/v1', false],
    ['http://localhost.example.com/v1', false],
    ['http://127.0.0.1.nip.io/v1', false],
    ['http://127.0.0.1@evil.example/v1', false],
    ['file:///tmp/x', false],
    ['not a url', false],
  ])('%s → %s', (url, local) => {
    expect(isThisComputer(url)).toBe(local);
  });
});

// The fake model listens on 127.0.0.1; on Linux (and macOS) a URL naming 0.0.0.0 reaches it too,
// but 0.0.0.0 is not a loopback address: for the guard it is a provider off this computer. A persona
// that is not local-only is answered through it (the control), so "no request arrived" means the
// guard stopped it, not that the URL led nowhere.
let f: ChatFixture;
let offComputer: string;
beforeAll(async () => {
  f = await chatFixture();
  offComputer = f.server.baseURL.replace('127.0.0.1', '0.0.0.0');
  await f.core.call('settings.set', {
    chat: { baseUrl: offComputer, model: 'fake-chat' },
    embeddings: { provider: 'compatible', baseUrl: offComputer, model: 'fake-embed', dimensions: 16 },
    recallRewrite: true,
  });
});
afterAll(async () => {
  await f?.dispose();
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('a local-only persona', () => {
  it('is refused with local_only before any request: chat, review, flush, embeddings and recall’s model help', async () => {
    const open = (await f.core.call('personas.create', { name: 'Work' })).id;
    await f.core.call('chat.send', { persona: open, text: 'hello' });
    expect(f.fake.requests.length).toBeGreaterThan(0); // the control: this URL reaches the fake model

    const health = (await f.core.call('personas.create', { name: 'Health' })).id;
    const update = await f.core.call('personas.update', { id: health, localOnly: true });
    expect(update.persona.localOnly).toBe(true);
    expect((await f.core.call('personas.list', {})).find((p) => p.id === health)?.localOnly).toBe(true);
    const port = new URL(offComputer).port;
    expect(update.warnings).toEqual([
      expect.stringMatching(new RegExp(`^Chat uses 0\\.0\\.0\\.0:${port}: chats in “Health” .* will be refused until you choose a chat model on this computer`)),
      expect.stringMatching(new RegExp(`^Embeddings use 0\\.0\\.0\\.0:${port}: “Health”’s memories and documents will not be embedded`)),
    ]);
    const before = f.server.requests.length;

    const chat = await refusal(f.core.call('chat.send', { persona: health, text: 'my blood pressure was 150/95 today' }));
    expect(chat.code).toBe('local_only');
    expect(chat.message).toContain('“Health” is local-only');
    expect(chat.message).toContain(`0.0.0.0:${port}`);
    expect(chat.message).toContain('Settings → Chat model');

    // Review and compaction (whose flush carries the transcript) were queued before the switch, say.
    const conv = (await f.core.call('conversations.create', { persona: health })).id;
    const review = await enqueueJob(f.core.ctx.db, { queue: 'memory_review', persona: health, args: { conversationId: conv, transcript: 'User: my blood pressure was 150/95' } });
    const compaction = await enqueueJob(f.core.ctx.db, { queue: 'compaction', persona: health, args: { conversationId: conv } });
    // The memory is stored (text search finds it at once); only its vector is refused.
    const memory = await f.core.call('memories.write', { persona: health, content: 'Blood pressure 150/95 at the GP' });
    // A database without pgvector (docs/server-mode.md) stores no vectors and queues no embedding job.
    const vectors = f.core.ctx.db.features.vector;
    if (!vectors) console.log('local-only: this database stores no vectors, so there is no embedding job to refuse; chat, review, flush and recall are still checked');
    const embedJob = vectors ? (await f.core.call('jobs.list', { queue: 'embeddings', limit: 500 })).jobs.find((j) => j.persona === health)! : null;
    f.core.ctx.wakeJobs();
    for (const id of [review, compaction, ...(embedJob ? [embedJob.id] : [])]) {
      const job = await waitForJobState(f.core, id, 'discarded', 20_000);
      expect(job.attempt).toBe(1); // refused for good: no retry would help
      expect(job.lastError).toMatch(/^local_only: “Health” is local-only/);
    }
    if (vectors) expect((await f.core.call('memories.get', { id: memory.id })).embeddingStatus).toBe('failed');

    // Recall works by text alone: neither the query's vector nor the rewrite is asked for.
    const hits = await f.core.call('recall', { persona: health, query: 'blood pressure' });
    expect(hits.map((h) => h.content)).toContain('Blood pressure 150/95 at the GP');

    expect(f.server.requests.slice(before)).toEqual([]);
  });

  it('chats with a model on this computer (a loopback base URL)', async () => {
    const p = (await f.core.call('personas.create', { name: 'Therapy' })).id;
    await f.core.call('personas.update', { id: p, localOnly: true });
    await f.core.call('settings.set', { chat: { baseUrl: f.server.baseURL, model: 'fake-chat' } });
    try {
      f.fake.push({ text: 'Here, on your own machine.' });
      const reply = await f.core.call('chat.send', { persona: p, text: 'where are you?' });
      expect(reply.content).toBe('Here, on your own machine.');
      expect((await f.core.call('personas.update', { id: p, localOnly: true })).warnings).toEqual([
        expect.stringMatching(/^Embeddings use 0\.0\.0\.0/),
      ]);
    } finally {
      await f.core.call('settings.set', { chat: { baseUrl: offComputer, model: 'fake-chat' } });
    }
  });

  it('stays local-only and closed to AI tools through an export and an import', async () => {
    const p = (await f.core.call('personas.create', { name: 'Journal' })).id;
    await f.core.call('personas.update', { id: p, localOnly: true, mcp: false });
    const exported = await f.core.call('personas.export', { id: p });
    const imported = await f.core.call('personas.import', { path: exported.path! });
    expect(imported.persona).toMatchObject({ name: 'Journal (2)', localOnly: true, mcp: false });
  });

  it('can be closed to other AI tools: every MCP call is refused, and reopened', async () => {
    const p = (await f.core.call('personas.create', { name: 'Diary' })).id;
    await f.core.call('memories.write', { persona: p, content: 'Wrote three pages about the trip' });
    const client = await connectInMemory(f.core, { persona: p, readOnly: false });
    try {
      expect((await f.core.call('personas.update', { id: p, mcp: false })).persona.mcp).toBe(false);
      const refused = await client.callTool({ name: 'list_memories', arguments: {} });
      expect(isToolError(refused)).toBe(true);
      expect(resultText(refused)).toContain('closed the persona "Diary" to other AI tools');
      const add = await client.callTool({ name: 'add_memory', arguments: { content: 'should not be saved' } });
      expect(isToolError(add)).toBe(true);
      expect((await f.core.call('memories.list', { persona: p })).items.map((m) => m.content)).toEqual(['Wrote three pages about the trip']);

      await f.core.call('personas.update', { id: p, mcp: true });
      expect(resultText(await client.callTool({ name: 'list_memories', arguments: {} }))).toContain('Wrote three pages about the trip');
    } finally {
      await client.close();
    }
  });
});
