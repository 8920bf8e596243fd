import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChatFixture, chatFixture } from '../testing/chat-fixture';
import { fakeVector } from '../testing/fake-openai/embeddings';
import { addPersona, insertFixtureMemory } from '../testing/recall-fixtures';
import { MAX_REWRITES, usableQueries } from './rewrite';

// Model help for recall (docs/ranking.md, "Model help"): the plumbing only —
// the question is sent to the configured chat model (the fake server), its
// queries are searched with the question, and anything wrong means plain recall.
const QUESTION = "Which subject did Ana's brother pick at university?";

let f: ChatFixture;
const ids: Record<string, string> = {};

beforeAll(async () => {
  f = await chatFixture();
  const db = f.core.ctx.db;
  const model = f.core.ctx.embedder.model();
  const now = new Date();
  await addPersona(db, 'family');
  const mem = (key: string, content: string, importance: number) =>
    insertFixtureMemory(db, now, model, { persona: 'family', content, importance, daysAgo: 1, vector: fakeVector(content, 16) }).then(
      (id) => (ids[key] = id),
    );
  // Shares no word with the question: only a query naming Tomasz or geology finds it.
  await mem('answer', 'Tomasz studied geology in Krakow for five years.', 5);
  // More important and just as unrelated: without help they fill the top 3.
  for (let i = 0; i < 6; i++) await mem(`other${i}`, `Bought ${i + 2} tins of paint for the kitchen wall.`, 6);
}, 120_000);

afterAll(async () => {
  await f?.dispose();
});

beforeEach(() => f.fake.reset());

const ask = () => f.core.call('recall', { persona: 'family', query: QUESTION, limit: 3, kinds: ['memory'] });
const rewriteOn = (on: boolean) => f.core.call('settings.set', { recallRewrite: on });
const reply = (queries: unknown) => f.fake.push({ text: JSON.stringify({ queries }) });

describe('recall with model help', () => {
  it('is off by default: no model call, plain recall', async () => {
    expect((await f.core.call('settings.get', {})).recallRewrite).toBe(false);
    const hits = await ask();
    expect(hits.map((h) => h.id)).not.toContain(ids.answer);
    expect(f.fake.requests).toHaveLength(0);
  });

  it('when switched on, asks the chat model for search queries and finds what only they name', async () => {
    await rewriteOn(true);
    try {
      reply(['Tomasz studies subject university', 'My brother Tomasz studied geology.']);
      const hits = await ask();
      expect(hits[0]!.id).toBe(ids.answer);
      expect(f.fake.requests).toHaveLength(1);
      const req = f.fake.requests[0]!;
      expect(req.messages.at(-1)!.content).toBe(QUESTION);
      expect(req.response_format?.json_schema?.name).toBe('search_queries');
    } finally {
      await rewriteOn(false);
    }
  });

  it('falls back to plain recall, without an error, when the model fails or answers nonsense', async () => {
    const plain = (await ask()).map((h) => h.id);
    await rewriteOn(true);
    try {
      f.fake.push(
        { error: 500, message: 'model crashed' },
        { text: 'Sure! Here are some queries: Tomasz, geology' },
        { text: JSON.stringify({ queries: 'Tomasz geology' }) },
        { text: JSON.stringify({ query: ['Tomasz geology'] }) },
      );
      for (let i = 0; i < 4; i++) expect((await ask()).map((h) => h.id)).toEqual(plain);
      expect(f.fake.requests).toHaveLength(4);
      expect(f.fake.pending()).toBe(0);
    } finally {
      await rewriteOn(false);
    }
  });

  it('is never required: switched on without a chat model, recall answers plainly', async () => {
    const plain = (await ask()).map((h) => h.id);
    await f.core.call('settings.set', { recallRewrite: true, chat: { model: null } });
    try {
      expect((await ask()).map((h) => h.id)).toEqual(plain);
      expect(f.fake.requests).toHaveLength(0);
    } finally {
      await f.core.call('settings.set', { recallRewrite: false, chat: { model: 'fake-chat' } });
    }
  });

  it('the memory browser search never asks the model', async () => {
    await rewriteOn(true);
    try {
      reply(['Tomasz geology']);
      await f.core.call('memories.search', { persona: 'family', query: QUESTION });
      expect(f.fake.requests).toHaveLength(0);
    } finally {
      await rewriteOn(false);
    }
  });
});

describe('usableQueries', () => {
  it('keeps at most three distinct, trimmed queries other than the question', () => {
    expect(usableQueries('Where is Ana?', ['  where is ana? ', 'Ana  lives\nin Gdansk', '', 'ana lives in gdansk', 'a', 'b', 'c'])).toEqual([
      'Ana lives in Gdansk',
      'a',
      'b',
    ]);
    expect(usableQueries('q', ['x'.repeat(1000)])[0]!.length).toBe(300);
    expect(MAX_REWRITES).toBe(3);
  });
});
