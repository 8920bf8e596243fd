import { afterEach, beforeEach, expect, it } from 'vitest';
import { waitForJobs } from '../testing/wait-jobs';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';

let f: ChatFixture;
beforeEach(async () => {
  f = await chatFixture();
});
afterEach(async () => {
  await f.dispose();
});

it('/clear purges messages, summary and snapshot, and keeps memories, user model and knowledge', async () => {
  f.fake.push(
    { toolCalls: [{ name: 'memory', arguments: '{"action":"write","content":"Got a new job at the library.","importance":8}' }] },
    { text: 'Congrats!' },
  );
  await f.core.call('chat.send', { persona: 'main', text: 'I got a job at the library' });
  await f.core.call('userModel.upsert', { persona: 'main', dimension: 'baseline', content: 'Librarian' });
  await f.core.call('knowledge.ingest', { persona: 'main', name: 'notes.md', dataBase64: Buffer.from('# Notes\nShelving rules.').toString('base64') });
  await waitForJobs(f.core, 'ingest');
  await f.core.ctx.db.query(`UPDATE conversations SET summary = 'Earlier they talked.' WHERE persona = 'main'`);
  expect((await f.core.call('chat.prompt', { persona: 'main' })).blocks.topMemories).not.toContain('library');

  expect(await f.core.call('chat.clear', { persona: 'main' })).toEqual({ cleared: 4 });
  expect(await f.core.call('chat.history', { persona: 'main' })).toMatchObject({ messages: [], summary: '' });
  const prompt = await f.core.call('chat.prompt', { persona: 'main' });
  expect(prompt.blocks.summary).toBe('');
  expect(prompt.blocks.topMemories).toContain('- [general, imp=8] Got a new job at the library.');
  expect((await f.core.call('memories.list', { persona: 'main' })).total).toBe(1);
  expect(await f.core.call('userModel.list', { persona: 'main' })).toHaveLength(1);
  expect(await f.core.call('knowledge.listSources', { persona: 'main' })).toHaveLength(1);
});
