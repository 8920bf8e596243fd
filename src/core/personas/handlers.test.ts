import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { makeTestCore, type TestCore } from '../testing/core';

// One database for the file (opening one costs seconds); each test uses its own names.
let c: TestCore;
beforeAll(async () => {
  c = await makeTestCore();
});
afterAll(async () => {
  await c.dispose();
});

const ids = async () => (await c.call('personas.list', {})).map((p) => p.id);

describe('personas', () => {
  it('creates personas with slug ids, lists main first, and announces changes', async () => {
    const seen: unknown[] = [];
    c.events.subscribe((name, payload) => seen.push({ name, payload }));
    const trader = await c.call('personas.create', { name: 'Day Trader' });
    expect(trader).toMatchObject({ id: 'day-trader', name: 'Day Trader', counts: { memories: 0 } });
    expect((await c.call('personas.create', { name: 'Écrivain' })).id).toBe('ecrivain');
    expect((await c.call('personas.create', { name: '!!!' })).id).toBe('persona');
    // Another name with the same slug gets the next free id.
    expect((await c.call('personas.create', { name: 'Day  trader!' })).id).toBe('day-trader-2');
    expect(await ids()).toEqual(['main', 'day-trader', 'ecrivain', 'persona', 'day-trader-2']);
    expect(seen[0]).toEqual({ name: 'personas.changed', payload: { persona: 'day-trader' } });
  });

  it('refuses a duplicate name, whatever its case, with conflict', async () => {
    await c.call('personas.create', { name: 'Writer' });
    expect(await c.dispatch('personas.create', { name: 'writer' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: 'A persona named "writer" already exists.' },
    });
    expect(await c.dispatch('personas.create', { name: 'MAIN' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('renames a persona, keeping its id and its memories', async () => {
    await c.call('personas.create', { name: 'Poet' });
    await c.call('memories.write', { persona: 'poet', content: 'Drafts in the morning' });
    const renamed = await c.call('personas.rename', { id: 'poet', name: 'Novelist' });
    expect(renamed).toMatchObject({ id: 'poet', name: 'Novelist', counts: { memories: 1 } });
    expect(await c.dispatch('personas.rename', { id: 'poet', name: 'main' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await c.dispatch('personas.rename', { id: 'ghost', name: 'Ghost' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Renaming to its own name in another case is not a clash with itself.
    expect((await c.call('personas.rename', { id: 'poet', name: 'NOVELIST' })).name).toBe('NOVELIST');
  });

  it('keeps an avatar: one emoji (joined ones whole) or one or two letters; rename changes or clears it', async () => {
    const teacher = await c.call('personas.create', { name: 'Teacher', avatar: '🧑‍🏫' });
    expect(teacher.avatar).toBe('🧑‍🏫');
    expect((await c.call('personas.create', { name: 'Flags', avatar: ' 🇫🇷 ' })).avatar).toBe('🇫🇷');
    expect((await c.call('personas.create', { name: 'Initials', avatar: 'Jé' })).avatar).toBe('Jé');
    expect((await c.call('personas.create', { name: 'Plain' })).avatar).toBeNull();
    // Renaming without an avatar keeps it; a new one replaces it; null goes back to the name's first character.
    expect((await c.call('personas.rename', { id: teacher.id, name: 'Tutor' })).avatar).toBe('🧑‍🏫');
    expect((await c.call('personas.rename', { id: teacher.id, name: 'Tutor', avatar: '📚' })).avatar).toBe('📚');
    expect((await c.call('personas.list', {})).find((p) => p.id === teacher.id)).toMatchObject({ name: 'Tutor', avatar: '📚' });
    expect((await c.call('personas.rename', { id: teacher.id, name: 'Tutor', avatar: null })).avatar).toBeNull();
    const before = await ids();
    for (const bad of ['ABC', '🙂🙂', 'A🙂', '12', '!', '😀 x']) {
      expect(await c.dispatch('personas.create', { name: `Bad ${bad}`, avatar: bad })).toMatchObject({
        ok: false,
        error: { code: 'invalid_args', message: expect.stringContaining('one emoji or one or two letters') },
      });
      expect(await c.dispatch('personas.rename', { id: teacher.id, name: 'Tutor', avatar: bad })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    expect(await ids()).toEqual(before);
    expect((await c.call('personas.list', {})).find((p) => p.id === teacher.id)!.avatar).toBeNull();
  });

  it('validates names and ids', async () => {
    const before = await ids();
    expect(await c.dispatch('personas.create', { name: '' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await c.dispatch('personas.create', { name: 'x'.repeat(65) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_args', message: expect.stringContaining('at most 64') },
    });
    expect(await c.dispatch('personas.create', {})).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await c.dispatch('personas.rename', { id: 'Not An Id', name: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await ids()).toEqual(before);
  });

  it('keeps each persona’s memories apart', async () => {
    await c.call('personas.create', { name: 'Trader' });
    const m = await c.call('memories.write', { persona: 'trader', content: 'Bought ACME at 12', category: 'trades', importance: 7 });
    await c.call('memories.write', { persona: 'main', content: 'Walks the dog at 7' });
    const traderPage = await c.call('memories.list', { persona: 'trader' });
    expect(traderPage.items.map((x) => x.content)).toEqual(['Bought ACME at 12']);
    expect(traderPage.items[0]).toMatchObject({ id: m.id, persona: 'trader', category: 'trades', importance: 7, origin: 'manual' });
    expect((await c.call('memories.list', { persona: 'main' })).items.map((x) => x.content)).toEqual(['Walks the dog at 7']);
    expect(await c.dispatch('memories.write', { persona: 'ghost', content: 'x' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await c.dispatch('memories.list', { persona: 'ghost' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('keeps personas and memories on disk across a restart', async () => {
    const own = await makeTestCore();
    await own.call('personas.create', { name: 'Trader' });
    await own.call('memories.write', { persona: 'trader', content: 'Prefers limit orders' });
    await own.close();
    // On a server (testing/server.ts) the reopened core connects to the same database again.
    const reopened = await createCore({ dataDir: own.dataDir, ...(own.databaseUrl ? { databaseUrl: own.databaseUrl } : {}) });
    try {
      expect((await reopened.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Trader']);
      expect((await reopened.call('memories.list', { persona: 'trader' })).items.map((x) => x.content)).toEqual(['Prefers limit orders']);
    } finally {
      await reopened.close();
      await own.dispose();
    }
  });
});
