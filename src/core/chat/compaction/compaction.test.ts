import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ChatRequestBody, FakeReply } from '../../testing/fake-openai/chat';
import { waitFor, waitForJobs } from '../../testing/wait-jobs';
import { type ChatFixture, chatFixture } from '../../testing/chat-fixture';

// One core for the file (starting one is most of a test's time, docs/testing.md): each test has a
// persona of its own and starts with the fake model's script emptied once the previous test's
// compactions are done. The test that leaves a compaction hanging gets a core of its own.
let shared: ChatFixture;
let f: ChatFixture;
let p: string;
let n = 0;
beforeAll(async () => {
  shared = await chatFixture({ contextBudgetTokens: 2000 });
});
afterAll(async () => {
  await shared?.dispose();
});
beforeEach(async () => {
  f = shared;
  await waitForJobs(f.core, 'compaction');
  f.fake.reset();
  p = (await f.core.call('personas.create', { name: `Person ${++n}` })).id;
});

/** This test's compaction jobs, once none is waiting or running (oldest first). */
async function compactions() {
  return (await waitForJobs(f.core, 'compaction')).filter((j) => j.persona === p);
}

const kind = (b: ChatRequestBody) => {
  const system = b.messages[0]?.content ?? '';
  if (system.startsWith('The conversation excerpt below is about to be condensed')) return 'flush';
  if (system.startsWith('You maintain the rolling summary')) return 'summary';
  return 'turn';
};
const requestsOf = (k: string) => f.fake.requests.filter((b) => kind(b) === k);

function answer(flush: () => FakeReply, summary: () => FakeReply) {
  f.fake.fallback = (b) => {
    const k = kind(b);
    return k === 'flush' ? flush() : k === 'summary' ? summary() : { text: `Reply. ${'words '.repeat(290)}` };
  };
}

// Three turns of ~1500-character messages outgrow a 2000-token budget.
async function fillConversation() {
  for (let i = 1; i <= 3; i++) await f.core.call('chat.send', { persona: p, text: `Turn ${i}. ${'story '.repeat(250)}` });
}

async function snapshot(): Promise<string | null> {
  const { rows } = await f.core.ctx.db.query<{ s: string | null }>(`SELECT memory_snapshot AS s FROM conversations WHERE persona = $1`, [p]);
  return rows[0]!.s;
}

describe('compaction with pre-compaction flush (trigger 3)', () => {
  it('flushes exactly the planned slice into memories, folds it into the summary and refreshes the snapshot next turn', async () => {
    answer(
      () => ({ text: '```json\n[{"category":"journal","content":"Told the turn-one story.","importance":7}]\n```' }),
      () => ({ text: 'The user told a long story in turn one.' }),
    );
    await fillConversation();
    expect(await snapshot()).toBe('## Top memories for this persona');
    const [job] = await compactions();
    expect(job!.state).toBe('completed');

    // One flush call and one summary call, both on the same slice: turn 1 only.
    expect(requestsOf('flush')).toHaveLength(1);
    expect(requestsOf('summary')).toHaveLength(1);
    const flushed = requestsOf('flush')[0]!.messages[1]!.content!;
    expect(flushed).toMatch(/^User: Turn 1\./);
    expect(flushed).not.toMatch(/Turn 2/);
    expect(requestsOf('summary')[0]!.messages[1]!.content).toContain(flushed);

    const { messages, summary } = await f.core.call('chat.history', { persona: p });
    expect(summary).toBe('The user told a long story in turn one.');
    expect(messages.map((m) => m.folded)).toEqual([true, true, false, false, false, false]);
    const memories = (await f.core.call('memories.list', { persona: p })).items;
    expect(memories.map((m) => [m.content, m.origin, m.importance])).toEqual([['Told the turn-one story.', 'flush', 7]]);
    expect(await snapshot()).toBeNull();

    // The next turn sends the summary and only the unfolded messages, with a fresh snapshot.
    await f.core.call('chat.send', { persona: p, text: 'and then?' });
    const last = requestsOf('turn').at(-1)!;
    expect(last.messages[0]!.content).toContain('- [journal, imp=7] Told the turn-one story.');
    expect(last.messages[0]!.content).toMatch(/## Summary of the earlier conversation\nThe user told a long story in turn one\.$/);
    expect(last.messages.slice(1).map((m) => m.content?.slice(0, 7))).toEqual(['Turn 2.', 'Reply. ', 'Turn 3.', 'Reply. ', 'and the']);
    expect(await snapshot()).toContain('Told the turn-one story.');
  });

  it('a flushed fact the persona already holds in other words is not written again', async () => {
    const saved = await f.core.call('memories.write', { persona: p, content: 'The user told the turn-one story.' });
    answer(
      () => ({ text: '[{"category":"journal","content":"Told the turn-one story.","importance":7},{"category":"journal","content":"Bought a kayak.","importance":5}]' }),
      () => ({ text: 'The user told a long story in turn one.' }),
    );
    await fillConversation();
    const [job] = await compactions();
    expect(job!.state).toBe('completed');
    const memories = (await f.core.call('memories.list', { persona: p })).items;
    expect(memories.map((m) => [m.content, m.origin]).sort()).toEqual([
      ['Bought a kayak.', 'flush'],
      ['The user told the turn-one story.', 'manual'],
    ]);
    expect(memories.find((m) => m.origin === 'manual')!.id).toBe(saved.id);
  });

  it('a malformed or failed flush is logged and the fold still happens', async () => {
    let flushes = 0;
    answer(
      () => (++flushes === 1 ? { text: 'Sure! Here are some memories: none really' } : { error: 500 }),
      () => ({ text: 'Summary.' }),
    );
    await fillConversation();
    const [job] = await compactions();
    expect(job!.state).toBe('completed');
    expect(job!.progress!.label).toMatch(/malformed flush output/);
    const { messages, summary } = await f.core.call('chat.history', { persona: p });
    expect(summary).toBe('Summary.');
    expect(messages.filter((m) => m.folded)).toHaveLength(2);
    expect((await f.core.call('memories.list', { persona: p })).total).toBe(0);
  });

  it('a failed summary fails the attempt and folds nothing; the retry folds', async () => {
    let summaries = 0;
    answer(
      () => ({ text: '[]' }),
      () => (++summaries === 1 ? { error: 500, message: 'model crashed' } : { text: 'Summary after retry.' }),
    );
    await fillConversation();
    const [job] = await compactions();
    expect(job!.state).toBe('completed');
    expect(job!.attempt).toBe(2);
    expect(job!.errors[0]!.error).toMatch(/model crashed/);
    const { messages, summary } = await f.core.call('chat.history', { persona: p });
    expect(summary).toBe('Summary after retry.');
    expect(messages.filter((m) => m.folded)).toHaveLength(2);
  });

  it('each conversation is compacted on its own: one waiting on the model does not hold up another', async () => {
    const own = await chatFixture({ contextBudgetTokens: 2000 });
    onTestFinished(() => own.dispose());
    f = own;
    p = 'main';
    // The first conversation's flush never answers, so its compaction stays running.
    f.fake.fallback = (b) => (kind(b) === 'turn' ? { text: `Reply. ${'words '.repeat(290)}` } : { hang: true });
    await fillConversation();
    await waitFor(async () => (await f.core.call('jobs.list', { queue: 'compaction' })).jobs.find((j) => j.state === 'running'), 'a running compaction');
    const second = await f.core.call('conversations.create', { persona: p, title: 'Second' });
    for (let i = 1; i <= 3; i++) {
      await f.core.call('chat.send', { persona: p, conversation: second.id, text: `Other ${i}. ${'story '.repeat(250)}` });
    }
    const { jobs } = await f.core.call('jobs.list', { queue: 'compaction' });
    const conversations = new Set(jobs.map((j) => j.args.conversationId));
    expect(conversations.size).toBe(2);
    expect(conversations.has(second.id)).toBe(true);
  });
});
