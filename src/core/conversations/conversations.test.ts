import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';

let f: ChatFixture;
beforeAll(async () => {
  f = await chatFixture();
}, 120_000);
afterAll(async () => {
  await f.dispose();
});

describe('several conversations per persona', () => {
  it('each keeps its own messages and memory snapshot; the one used last is current; rename and delete', async () => {
    f.fake.push({ text: 'About running.' });
    await f.core.call('chat.send', { persona: 'main', text: 'talk about running' });
    const first = (await f.core.call('chat.history', { persona: 'main' })).conversation!;
    const snapshotBefore = (await f.core.call('chat.prompt', { persona: 'main', conversation: first })).blocks.topMemories;

    await f.core.call('memories.write', { persona: 'main', content: 'Moved to Lisbon in November.', importance: 10 });
    const second = await f.core.call('conversations.create', { persona: 'main' });
    expect(second).toMatchObject({ title: '', messages: 0, firstMessage: null });
    f.fake.push({ text: 'About Lisbon.' });
    await f.core.call('chat.send', { persona: 'main', conversation: second.id, text: 'talk about Lisbon' });

    // Separate transcripts.
    const a = await f.core.call('chat.history', { persona: 'main', conversation: first });
    const b = await f.core.call('chat.history', { persona: 'main', conversation: second.id });
    expect(a.messages.map((m) => m.content)).toEqual(['talk about running', 'About running.']);
    expect(b.messages.map((m) => m.content)).toEqual(['talk about Lisbon', 'About Lisbon.']);
    // Separate snapshots: the old conversation keeps its block verbatim, the new one rendered its own.
    expect((await f.core.call('chat.prompt', { persona: 'main', conversation: first })).blocks.topMemories).toBe(snapshotBefore);
    expect((await f.core.call('chat.prompt', { persona: 'main', conversation: second.id })).blocks.topMemories).toContain('Moved to Lisbon');
    // The model saw only the second conversation's messages.
    expect(f.fake.requests.at(-1)!.messages.map((m) => m.content)).not.toContain('talk about running');

    // Current = used last; a caller that names none (MCP, older clients) lands there.
    expect((await f.core.call('chat.history', { persona: 'main' })).conversation).toBe(second.id);
    const list = await f.core.call('conversations.list', { persona: 'main' });
    expect(list.map((c) => [c.id, c.firstMessage, c.messages])).toEqual([
      [second.id, 'talk about Lisbon', 2],
      [first, 'talk about running', 2],
    ]);

    expect((await f.core.call('conversations.rename', { persona: 'main', id: first, title: '  Running plans ' })).title).toBe('Running plans');
    // Clearing one leaves the other alone.
    await f.core.call('chat.clear', { persona: 'main', conversation: second.id });
    expect((await f.core.call('chat.history', { persona: 'main', conversation: first })).messages).toHaveLength(2);

    expect(await f.core.call('conversations.delete', { persona: 'main', id: first })).toEqual({ deleted: true });
    const gone = await f.core.dispatch('chat.history', { persona: 'main', conversation: first });
    expect(gone.ok ? null : gone.error.code).toBe('not_found');
    // Memories stay.
    expect((await f.core.call('memories.list', { persona: 'main' })).total).toBe(1);
    // Another persona cannot reach this one's conversation.
    await f.core.call('personas.create', { name: 'Other' });
    const foreign = await f.core.dispatch('chat.history', { persona: 'other', conversation: second.id });
    expect(foreign.ok ? null : foreign.error.code).toBe('not_found');
  }, 120_000);
});

describe('searching past conversations', () => {
  it('finds words in any message of any of the persona’s conversations, best match first, and nothing of another persona', async () => {
    const other = (await f.core.call('personas.create', { name: 'Searcher elsewhere' })).id;
    const trip = await f.core.call('conversations.create', { persona: 'main', title: 'Trip to Porto' });
    f.fake.push({ text: 'Take the tram to the Ribeira and try the francesinha.' });
    await f.core.call('chat.send', { persona: 'main', conversation: trip.id, text: 'what should I eat in Porto?' });
    const garden = await f.core.call('conversations.create', { persona: 'main' });
    f.fake.push({ text: 'Plant the beans after the last frost.' });
    await f.core.call('chat.send', { persona: 'main', conversation: garden.id, text: 'when do I sow beans?' });
    f.fake.push({ text: 'Trams in Porto are old.' });
    await f.core.call('chat.send', { persona: other, text: 'tell me about Porto trams' });

    // An answer's words, stemmed ("planting" finds "Plant"); the hit names its conversation and message.
    const beans = await f.core.call('conversations.search', { persona: 'main', query: 'planting beans' });
    expect(beans[0]).toMatchObject({ conversation: garden.id, title: 'when do I sow beans?', role: 'assistant' });
    expect(beans[0]!.snippet).toContain('Plant the beans after the last frost');
    const history = await f.core.call('chat.history', { persona: 'main', conversation: garden.id });
    expect(history.messages.find((m) => m.id === beans[0]!.message)?.content).toBe('Plant the beans after the last frost.');

    // A person's own words, in another conversation; the other persona's chat is not searched.
    const tram = await f.core.call('conversations.search', { persona: 'main', query: 'tram' });
    expect(tram.map((h) => [h.title, h.role])).toEqual([['Trip to Porto', 'assistant']]);
    // Punctuation and operators in the query are words, not syntax; nothing found is an empty list.
    expect(await f.core.call('conversations.search', { persona: 'main', query: "'); DROP TABLE messages; --" })).toEqual([]);
    expect(await f.core.call('conversations.search', { persona: 'main', query: 'the' })).toEqual([]);
  });
});
