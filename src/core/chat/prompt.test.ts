import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { waitForJobs } from '../testing/wait-jobs';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';

// One core for the file (starting one is most of a test's time, docs/testing.md): each test has a
// persona of its own and starts with the fake model's script emptied.
let f: ChatFixture;
let who: string;
let n = 0;
beforeAll(async () => {
  f = await chatFixture();
});
afterAll(async () => {
  await f?.dispose();
});
beforeEach(async () => {
  f.fake.reset();
  who = (await f.core.call('personas.create', { name: `Person ${++n}` })).id;
});

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);
const systemOf = (i: number) => f.fake.requests[i]!.messages[0]!.content as string;

async function turn(text: string, ...replies: Parameters<ChatFixture['fake']['push']>): Promise<string> {
  const before = f.fake.requests.length;
  f.fake.push(...replies);
  await f.core.call('chat.send', { persona: who, text });
  return systemOf(before);
}

const writeCall = (content: string, importance = 9) => ({
  toolCalls: [{ name: 'memory', arguments: JSON.stringify({ action: 'write', category: 'journal', content, importance }) }],
});

it('keeps the system prompt byte-for-byte stable while memories are written; changes it only on a user-model write or /clear', async () => {
  await f.core.call('memories.write', { persona: who, content: 'Adopted a cat named Miso.', category: 'journal', importance: 6 });
  const trace: string[] = [];
  const s1 = await turn('hello', { text: 'Hi!' });
  trace.push(`turn 1 ${hash(s1)}`);
  expect(s1).toContain('- [journal, imp=6] Adopted a cat named Miso.');
  expect(s1).toBe((await f.core.call('chat.prompt', { persona: who })).system);

  // Turn 2 writes a very important memory (foreground), and another arrives from the memory browser.
  const s2 = await turn('I finished the marathon today', writeCall('Finished the Berlin marathon.'), { text: 'Well done!' });
  await f.core.call('memories.write', { persona: who, content: 'Started learning the cello.', importance: 10 });
  const s3 = await turn('thanks', { text: 'Any time.' });
  trace.push(`turn 2 ${hash(s2)}`, `turn 2 (after tool) ${hash(systemOf(f.fake.requests.length - 2))}`, `turn 3 ${hash(s3)}`);
  // The request that followed the tool call, and the next turn: all the same bytes.
  for (let i = 0; i < f.fake.requests.length; i++) expect(systemOf(i)).toBe(s1);
  expect(s3).not.toContain('Berlin marathon');
  expect((await f.core.call('memories.list', { persona: who })).total).toBe(3);

  // A user-model write changes the prompt (it is read fresh), at once in the same turn.
  const s4 = await turn(
    'I am vegetarian',
    { toolCalls: [{ name: 'user_model_write', arguments: '{"dimension":"preferences","content":"vegetarian","confidence":9}' }] },
    { text: 'Noted.' },
  );
  const s4b = systemOf(f.fake.requests.length - 1);
  trace.push(`turn 4 ${hash(s4)}`, `turn 4 (after user_model_write) ${hash(s4b)}`);
  expect(s4).toBe(s1);
  expect(s4b).not.toBe(s1);
  expect(s4b).toContain('- [preferences, conf=9] vegetarian');
  expect(s4b.replace('\n- [preferences, conf=9] vegetarian', '')).toBe(s1);
  const s5 = await turn('ok', { text: 'ok' });
  trace.push(`turn 5 ${hash(s5)}`);
  expect(s5).toBe(s4b);

  // /clear refreshes the snapshot: the memories written since now show.
  await f.core.call('chat.clear', { persona: who });
  const s6 = await turn('hello again', { text: 'Hello.' });
  trace.push(`turn 6 after /clear ${hash(s6)}`);
  expect(s6).toContain('- [journal, imp=9] Finished the Berlin marathon.');
  expect(s6).toContain('- [general, imp=10] Started learning the cello.');
  expect(s6).toContain('- [preferences, conf=9] vegetarian');
  console.log(`system prompt hash per request:\n  ${trace.join('\n  ')}`);
  await waitForJobs(f.core, 'embeddings');
});

it('puts the blocks in the documented order: base instructions (with the capture rule), user model, top memories, summary', async () => {
  await f.core.call('userModel.upsert', { persona: who, dimension: 'baseline', content: 'Lives in Lisbon', confidence: 8 });
  await f.core.ctx.db.query(
    `INSERT INTO conversations (persona, summary) VALUES ($1, 'They talked about moving house.')`,
    [who],
  );
  const p = await f.core.call('chat.prompt', { persona: who });
  expect(p.blocks.base).toMatch(/call a tool in this same turn/);
  expect(p.blocks.base).toMatch(/user_model_write/);
  expect(p.blocks.userModel).toBe('## User model (call `user_model_write` to update a dimension)\n- [baseline, conf=8] Lives in Lisbon');
  expect(p.blocks.topMemories).toBe('## Top memories for this persona');
  expect(p.system).toBe([p.blocks.base, p.blocks.userModel, p.blocks.topMemories, p.blocks.summary].join('\n\n'));
  expect(p.blocks.summary).toMatch(/They talked about moving house\.$/);
});
