import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ChatMessage, Events } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { MAX_TOOL_ROUNDS, STOPPED_MARK } from './turn';

// One core for the file (starting one is most of a test's time, docs/testing.md); each test
// talks to a persona of its own, with the fake model's script and the event log emptied.
// The two tests that break the model for good (server stopped, settings deleted) get their own core.
let shared: ChatFixture;
let f: ChatFixture;
let p: string;
let n = 0;
beforeAll(async () => {
  shared = await chatFixture();
});
afterAll(async () => {
  await shared?.dispose();
});
beforeEach(async () => {
  f = shared;
  f.fake.reset();
  f.events.length = 0;
  p = (await f.core.call('personas.create', { name: `Turn ${++n}` })).id;
});

/** A core of its own, for a test that leaves the chat model unusable. */
async function own(): Promise<ChatFixture> {
  f = await chatFixture();
  p = 'main';
  return f;
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a failure');
}

describe('a chat turn', () => {
  it('streams the reply as token events and stores both messages', async () => {
    f.fake.push({ text: 'Hello there, how can I help today?', chunks: 5 });
    const reply = await f.core.call('chat.send', { persona: p, text: 'hi' });
    expect(reply.content).toBe('Hello there, how can I help today?');
    const tokens = f.events.filter((e) => e.name === 'chat.token').map((e) => e.payload as { delta: string; messageId: string });
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    expect(tokens.map((t) => t.delta).join('')).toBe(reply.content);
    expect(new Set(tokens.map((t) => t.messageId))).toEqual(new Set([reply.id]));
    const { messages } = await f.core.call('chat.history', { persona: p });
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', reply.content],
    ]);
    expect(f.fake.requests[0]!.stream).toBe(true);
    const states = f.events.filter((e) => e.name === 'chat.state').map((e) => (e.payload as { busy: boolean }).busy);
    expect(states).toEqual([true, false]);
  });

  it('captures a durable fact at once: memory written with origin explicit, visible as a tool result with its id', async () => {
    f.fake.push(
      {
        toolCalls: [
          { name: 'memory', arguments: JSON.stringify({ action: 'write', category: 'project', content: 'Shipped Hearth 0.1 today.', importance: 8 }) },
        ],
      },
      { text: 'Congratulations — noted.' },
    );
    const reply = await f.core.call('chat.send', { persona: p, text: 'Remember: we shipped Hearth 0.1 today!' });
    expect(reply.content).toBe('Congratulations — noted.');
    const page = await f.core.call('memories.list', { persona: p });
    expect(page.items).toHaveLength(1);
    const m = page.items[0]!;
    expect(m).toMatchObject({ content: 'Shipped Hearth 0.1 today.', category: 'project', importance: 8, origin: 'explicit' });
    const { messages } = await f.core.call('chat.history', { persona: p });
    expect(m.conversationId).not.toBeNull();
    const call = messages.find((x) => x.role === 'assistant' && x.toolCalls)!;
    const result = messages.find((x) => x.role === 'tool')!;
    expect(call.toolCalls![0]!.name).toBe('memory');
    expect(result.toolCallId).toBe(call.toolCalls![0]!.id);
    expect(result.memoryIds).toEqual([m.id]);
    // The second request carried the call and its result back to the model.
    const second = f.fake.requests[1]!.messages;
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.toolCalls![0]!.id });
  });

  it('answers a bad tool call with an error the model can correct, writing nothing', async () => {
    f.fake.push(
      { toolCalls: [{ name: 'memory', arguments: '{"action":"write","importance":"high"' }] },
      { toolCalls: [{ name: 'memory', arguments: '{"action":"write","content":"Ran 10k.","importance":11}' }] },
      { text: 'Sorry, fixed.' },
    );
    await f.core.call('chat.send', { persona: p, text: 'I ran 10k' });
    const { messages } = await f.core.call('chat.history', { persona: p });
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toMatch(/^Error: .*not valid JSON/);
    expect(results[1]).toMatch(/^Error: invalid arguments for memory: importance/);
    expect((await f.core.call('memories.list', { persona: p })).total).toBe(0);
  });

  it('bounds the tool loop: after the last round the model is asked without tools', async () => {
    f.fake.fallback = (body) =>
      body.tools ? { toolCalls: [{ name: 'recall', arguments: '{"query":""}' }] } : { text: 'Final answer.' };
    const reply = await f.core.call('chat.send', { persona: p, text: 'loop forever' });
    expect(reply.content).toBe('Final answer.');
    expect(f.fake.requests).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(f.fake.requests.at(-1)!.tools).toBeUndefined();
  });

  it('refuses a second send while a turn runs, and cancel keeps what was streamed, marked', async () => {
    f.fake.push({ hang: true, text: 'Partial answ' });
    const first = f.core.call('chat.send', { persona: p, text: 'tell me a long story' });
    await expect.poll(() => f.events.some((e) => e.name === 'chat.token'), { timeout: 10_000 }).toBe(true);
    expect((await failure(f.core.call('chat.send', { persona: p, text: 'again' }))).code).toBe('busy');
    expect(await f.core.call('chat.cancel', { persona: p })).toEqual({ cancelled: true });
    expect((await failure(first)).code).toBe('cancelled');
    const { messages } = await f.core.call('chat.history', { persona: p });
    expect(messages.map((m: ChatMessage) => m.content)).toEqual(['tell me a long story', `Partial answ${STOPPED_MARK}`]);
    const last = f.events.filter((e) => e.name === 'chat.state').at(-1)!.payload as Events['chat.state'];
    expect(last).toMatchObject({ busy: false, error: { code: 'cancelled' } });
    // The persona is free again.
    f.fake.push({ text: 'Back.' });
    expect((await f.core.call('chat.send', { persona: p, text: 'hello?' })).content).toBe('Back.');
  });

  it('retry answers the last message again after a failure, and regenerate replaces the last answer', async () => {
    expect((await failure(f.core.call('chat.retry', { persona: p }))).code).toBe('conflict');
    f.fake.push({ error: 500 });
    expect((await failure(f.core.call('chat.send', { persona: p, text: 'plan my week' }))).code).toBe('provider_error');
    f.fake.push({ text: 'Monday: rest.' });
    expect((await f.core.call('chat.retry', { persona: p })).content).toBe('Monday: rest.');
    f.fake.push({ text: 'Monday: long run.' });
    await f.core.call('chat.retry', { persona: p });
    const { messages } = await f.core.call('chat.history', { persona: p });
    // One question, one (the newest) answer: nothing duplicated, the old answer gone.
    expect(messages.map((m: ChatMessage) => [m.role, m.content])).toEqual([
      ['user', 'plan my week'],
      ['assistant', 'Monday: long run.'],
    ]);
    expect(f.fake.requests.at(-1)!.messages.map((m) => m.content)).not.toContain('Monday: rest.');
  });

  it('edit rewrites the last question and answers it anew; earlier messages stay', async () => {
    expect((await failure(f.core.call('chat.edit', { persona: p, text: 'x' }))).code).toBe('conflict');
    f.fake.push({ text: 'Hello.' });
    await f.core.call('chat.send', { persona: p, text: 'hi' });
    f.fake.push({ text: 'Paris has the Louvre.' });
    await f.core.call('chat.send', { persona: p, text: 'what is in Pairs?' });
    f.fake.push({ text: 'Lyon has the traboules.' });
    expect((await f.core.call('chat.edit', { persona: p, text: 'what is in Lyon?' })).content).toBe('Lyon has the traboules.');
    const { messages } = await f.core.call('chat.history', { persona: p });
    expect(messages.map((m: ChatMessage) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello.'],
      ['user', 'what is in Lyon?'],
      ['assistant', 'Lyon has the traboules.'],
    ]);
    // The model saw the question as edited, never the old one or its answer.
    const sent = f.fake.requests.at(-1)!.messages.map((m) => m.content);
    expect(sent).toContain('what is in Lyon?');
    expect(sent).not.toContain('what is in Pairs?');
    expect(sent).not.toContain('Paris has the Louvre.');
  });

  it('maps provider failures to clear codes', async () => {
    const f = await own();
    onTestFinished(() => f.dispose());
    f.fake.push({ error: 401, message: 'Incorrect API key provided' });
    expect((await failure(f.core.call('chat.send', { persona: p, text: 'a' }))).code).toBe('provider_auth');
    f.fake.push({ error: 500 });
    expect((await failure(f.core.call('chat.send', { persona: p, text: 'b' }))).code).toBe('provider_error');
    f.fake.push({ error: 400, code: 'context_length_exceeded', message: "This model's maximum context length is 8192 tokens." });
    expect((await failure(f.core.call('chat.send', { persona: p, text: 'c' }))).code).toBe('context_overflow');
    await f.server.close();
    const e = await failure(f.core.call('chat.send', { persona: p, text: 'd' }));
    expect(e.code).toBe('provider_unreachable');
    expect(e.message).toMatch(/Cannot reach the chat model/);
  });
});

describe('without a chat model', () => {
  it('answers not_configured with how to configure one, and the rest of the app works', async () => {
    const f = await own();
    onTestFinished(() => f.dispose());
    await f.core.ctx.db.query(`DELETE FROM settings WHERE key = 'chat'`);
    const e = await failure(f.core.call('chat.send', { persona: p, text: 'hi' }));
    expect(e.code).toBe('not_configured');
    expect(e.message).toMatch(/Settings/);
    expect((await f.core.call('chat.history', { persona: p })).messages).toEqual([]);
    expect((await f.core.call('chat.prompt', { persona: p })).system).toMatch(/## User model/);
    expect((await f.core.call('memories.write', { persona: p, content: 'still works' })).content).toBe('still works');
    expect(f.fake.requests).toHaveLength(0);
  });
});
