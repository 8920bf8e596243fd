import { afterEach, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { enqueueJob } from './enqueue';
import { firstWords } from './subject';

let core: TestCore | null = null;
afterEach(async () => {
  await core?.dispose();
  core = null;
});

it('jobs.list names what each job worked on, as it is now, and says when that thing is gone', async () => {
  core = await makeTestCore({ queues: {} });
  const kept = await core.call('memories.write', { persona: 'main', content: 'Plays the cello on Sunday mornings' });
  const gone = await core.call('memories.write', { persona: 'main', content: 'Owns a red bicycle' });
  await core.call('memories.delete', { id: gone.id });
  const chat = await core.call('conversations.create', { persona: 'main', title: 'Planning the trip to Porto' });
  await enqueueJob(core.ctx.db, { queue: 'compaction', persona: 'main', args: { conversationId: chat.id } });
  await enqueueJob(core.ctx.db, { queue: 'embeddings', persona: 'main', args: { target: 'memory', ids: [kept.id, gone.id] } });

  const { jobs } = await core.call('jobs.list', { persona: 'main', limit: 50 });
  const subjects = jobs.map((j) => `${j.queue}: ${j.subject}`);
  expect(subjects).toContain('compaction: the chat “Planning the trip to Porto”');
  expect(subjects).toContain('embeddings: “Plays the cello on Sunday mornings” and 1 more');
  expect(subjects).toContain('embeddings: a memory since deleted');
});

it('firstWords keeps a short text whole and cuts a long one after eight words', () => {
  expect(firstWords('  Likes   tea ')).toBe('Likes tea');
  expect(firstWords('one two three four five six seven eight nine')).toBe('one two three four five six seven eight…');
});
