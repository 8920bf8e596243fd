import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { runTool, type ToolScope } from './chat/tools/run';
import { type ChatFixture, chatFixture } from './testing/chat-fixture';
import { dispatch } from './dispatch';
import { handler, type Handlers } from './method';

let f: ChatFixture;
let scope: ToolScope;
beforeAll(async () => {
  f = await chatFixture();
  const { rows } = await f.core.ctx.db.query<{ id: string }>(`INSERT INTO conversations (persona) VALUES ('main') RETURNING id`);
  scope = { persona: 'main', conversationId: rows[0]!.id };
});
afterAll(async () => {
  await f.dispose();
});

const LONE_HIGH = '\uD83D'; // the first half of 😀 (U+1F600)

describe('NUL characters are refused with invalid_args naming the field', () => {
  it('from any door: the field is named and nothing is stored', async () => {
    const cases: [string, unknown, string][] = [
      ['memories.write', { persona: 'main', content: 'Paid the rent\u0000.' }, 'content'],
      ['memories.write', { persona: 'main', content: 'ok', category: 'bills\u0000' }, 'category'],
      ['personas.create', { name: 'Tra\u0000der' }, 'name'],
      ['userModel.upsert', { persona: 'main', dimension: 'goals', content: '\u0000' }, 'content'],
      ['memories.list', { persona: 'main', filters: { category: 'a\u0000' } }, 'filters.category'],
    ];
    for (const [method, args, field] of cases) {
      const res = await f.core.dispatch(method, args);
      expect(res, method).toEqual({
        ok: false,
        error: { code: 'invalid_args', message: `${field} contains a NUL character (U+0000), which cannot be stored. Remove it and try again; nothing was changed.`, details: { field } },
      });
    }
    expect((await f.core.call('memories.list', { persona: 'main' })).total).toBe(0);
    expect((await f.core.call('personas.list', {})).map((p) => p.id)).toEqual(['main']);
  });

  it('except in a search: recall stores nothing, so a NUL in its query reads as a space and still finds', async () => {
    await f.core.call('memories.write', { persona: 'main', content: 'Booked the ferry to Hydra' });
    const res = await f.core.dispatch('recall', { persona: 'main', query: 'ferry\u0000Hydra', limit: 5 });
    expect(res.ok).toBe(true);
    if (res.ok) expect((res.data as { content: string }[]).map((h) => h.content)).toContain('Booked the ferry to Hydra');
    await f.core.call('memories.delete', { id: (await f.core.call('memories.list', { persona: 'main' })).items[0]!.id });
  });

  it('one that slips past the doors (written by core code) still says invalid_args, not internal', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handlers = {
      ...f.core.handlers,
      'app.info': handler(z.object({}).strict(), () => f.core.ctx.db.query(`INSERT INTO personas (id, name) VALUES ('x', $1)`, ['a\u0000b'])),
    } as unknown as Handlers;
    const res = await dispatch(handlers, f.core.ctx, 'app.info', {});
    quiet.mockRestore();
    expect(res).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
  });

  it('from a model: the tool call fails with a message the model can act on', async () => {
    const out = await runTool(f.core.ctx, scope, 'memory', '{"action":"write","content":"Rent is due\\u0000 on the 1st."}');
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(/^Error: memory: content contains a NUL character/);
    expect((await f.core.call('memories.list', { persona: 'main' })).total).toBe(0);
  });

  it("a model's reply with a NUL in it is stored without it, instead of failing the turn", async () => {
    f.fake.push({ text: 'Noted\u0000, see you tomorrow.' });
    const reply = await f.core.call('chat.send', { persona: 'main', text: 'Remind me tomorrow.' });
    expect(reply.content).toBe('Noted, see you tomorrow.');
    const { messages } = await f.core.call('chat.history', { persona: 'main' });
    expect(messages.at(-1)?.content).toBe('Noted, see you tomorrow.');
  });
});

describe('lone surrogates (half an emoji) are replaced, and the caller is told', () => {
  it('stores U+FFFD in their place and answers with a note naming the field', async () => {
    const res = await f.core.dispatch('memories.write', { persona: 'main', content: `Went hiking ${LONE_HIGH} today`, category: 'outdoors' });
    expect(res).toMatchObject({ ok: true, data: { content: 'Went hiking \uFFFD today' } });
    if (!res.ok) throw new Error('unreachable');
    expect(res.notes).toEqual([expect.stringMatching(/^Some text in content was not valid Unicode .*replacement character/)]);
    const stored = await f.core.call('memories.get', { id: (res.data as { id: string }).id });
    expect(stored.content).toBe('Went hiking \uFFFD today');
  });

  it('leaves whole emoji and ordinary text alone, with no note', async () => {
    const res = await f.core.dispatch('memories.write', { persona: 'main', content: 'Finished the race 😀🏁 in 3:58' });
    expect(res).toMatchObject({ ok: true, data: { content: 'Finished the race 😀🏁 in 3:58' } });
    expect(res.ok && res.notes).toBeUndefined();
  });

  it('in a tool call: written with U+FFFD, and the model is told', async () => {
    // The model's JSON carries the escape of half a surrogate pair.
    const out = await runTool(f.core.ctx, scope, 'memory', '{"action":"write","content":"Saw a whale \\uD83D near the pier"}');
    expect(out.ok).toBe(true);
    expect(out.content).toMatch(/\(Note: Some text in content was not valid Unicode/);
    const m = await f.core.call('memories.get', { id: out.memoryIds[0]! });
    expect(m.content).toBe('Saw a whale \uFFFD near the pier');
  });
});
