import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { makeTestCore, type TestCore } from '../testing/core';

let core: TestCore | null = null;
afterEach(async () => {
  await core?.dispose();
  core = null;
});

async function fresh(): Promise<TestCore> {
  core = await makeTestCore();
  return core;
}

describe('personas', () => {
  it('creates personas with slug ids, lists main first, and announces changes', async () => {
    const c = await fresh();
    const seen: unknown[] = [];
    c.events.subscribe((name, payload) => seen.push({ name, payload }));
    const trader = await c.call('personas.create', { name: 'Day Trader' });
    expect(trader).toMatchObject({ id: 'day-trader', name: 'Day Trader', counts: { memories: 0 } });
    expect((await c.call('personas.create', { name: 'Écrivain' })).id).toBe('ecrivain');
    expect((await c.call('personas.create', { name: '!!!' })).id).toBe('persona');
    // Another name with the same slug gets the next free id.
    expect((await c.call('personas.create', { name: 'Day  trader!' })).id).toBe('day-trader-2');
    expect((await c.call('personas.list', {})).map((p) => p.id)).toEqual(['main', 'day-trader', 'ecrivain', 'persona', 'day-trader-2']);
    expect(seen[0]).toEqual({ name: 'personas.changed', payload: { persona: 'day-trader' } });
  });

  it('refuses a duplicate name, whatever its case, with conflict', async () => {
    const c = await fresh();
    await c.call('personas.create', { name: 'Writer' });
    expect(await c.dispatch('personas.create', { name: 'writer' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: 'A persona named "writer" already exists.' },
    });
    expect(await c.dispatch('personas.create', { name: 'MAIN' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('renames a persona, keeping its id and its memories', async () => {
    const c = await fresh();
    await c.call('personas.create', { name: 'Writer' });
    await c.call('memories.write', { persona: 'writer', content: 'Drafts in the morning' });
    const renamed = await c.call('personas.rename', { id: 'writer', name: 'Novelist' });
    expect(renamed).toMatchObject({ id: 'writer', name: 'Novelist', counts: { memories: 1 } });
    expect(await c.dispatch('personas.rename', { id: 'writer', name: 'main' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await c.dispatch('personas.rename', { id: 'ghost', name: 'Ghost' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Renaming to its own name in another case is not a clash with itself.
    expect((await c.call('personas.rename', { id: 'writer', name: 'NOVELIST' })).name).toBe('NOVELIST');
  });

  it('validates names and ids', async () => {
    const c = await fresh();
    expect(await c.dispatch('personas.create', { name: '' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await c.dispatch('personas.create', { name: 'x'.repeat(65) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_args', message: expect.stringContaining('at most 64') },
    });
    expect(await c.dispatch('personas.create', {})).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await c.dispatch('personas.rename', { id: 'Not An Id', name: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect((await c.call('personas.list', {})).length).toBe(1);
  });

  it('keeps each persona’s memories apart', async () => {
    const c = await fresh();
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
    const c = await fresh();
    await c.call('personas.create', { name: 'Trader' });
    await c.call('memories.write', { persona: 'trader', content: 'Prefers limit orders' });
    await c.close();
    const reopened = await createCore({ dataDir: c.dataDir });
    try {
      expect((await reopened.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Trader']);
      expect((await reopened.call('memories.list', { persona: 'trader' })).items.map((x) => x.content)).toEqual(['Prefers limit orders']);
    } finally {
      await reopened.close();
    }
  });
});
