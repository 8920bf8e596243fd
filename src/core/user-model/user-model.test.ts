import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { writeUserModel } from './write';

let core: TestCore;
let clock = new Date('2026-04-01T08:00:00Z');

beforeAll(async () => {
  core = await makeTestCore({ now: () => clock });
  await core.call('personas.create', { name: 'Coach' });
});

afterAll(async () => {
  await core?.dispose();
});

describe('user model', () => {
  it('upsert keeps one row per (persona, dimension): writing again replaces content, confidence and updated_at', async () => {
    const first = await core.call('userModel.upsert', { persona: 'main', dimension: 'preferences', content: 'Tea, not coffee' });
    expect(first).toMatchObject({ dimension: 'preferences', content: 'Tea, not coffee', confidence: 5 });
    clock = new Date('2026-04-02T08:00:00Z');
    const second = await core.call('userModel.upsert', { persona: 'main', dimension: ' preferences ', content: 'Green tea', confidence: 8 });
    expect(second).toMatchObject({ id: first.id, content: 'Green tea', confidence: 8, insertedAt: first.insertedAt, updatedAt: clock.toISOString() });
    expect(await core.call('userModel.list', { persona: 'main' })).toHaveLength(1);
    // the same dimension in another persona is another row
    await core.call('userModel.upsert', { persona: 'coach', dimension: 'preferences', content: 'Morning runs' });
    expect((await core.call('userModel.list', { persona: 'main' }))[0]!.content).toBe('Green tea');
  });

  it('lists and renders in a stable order: recommended dimensions first, then the rest alphabetically', async () => {
    for (const [dimension, content] of [
      ['zodiac', 'Leo'],
      ['goals', 'Run a marathon'],
      ['baseline', 'Lives in Porto'],
      ['Music', 'Jazz\nand blues'],
      ['feedback', 'Shorter answers'],
      ['working_patterns', 'Deep work before noon'],
    ] as const) {
      await core.call('userModel.upsert', { persona: 'main', dimension, content, confidence: 7 });
    }
    const dims = (await core.call('userModel.list', { persona: 'main' })).map((e) => e.dimension);
    expect(dims).toEqual(['baseline', 'preferences', 'working_patterns', 'feedback', 'goals', 'Music', 'zodiac']);
    expect(await core.call('userModel.block', { persona: 'main' })).toBe(
      [
        '## User model (call `user_model_write` to update a dimension)',
        '- [baseline, conf=7] Lives in Porto',
        '- [preferences, conf=8] Green tea',
        '- [working_patterns, conf=7] Deep work before noon',
        '- [feedback, conf=7] Shorter answers',
        '- [goals, conf=7] Run a marathon',
        '- [Music, conf=7] Jazz and blues',
        '- [zodiac, conf=7] Leo',
      ].join('\n'),
    );
  });

  it('delete removes one dimension of one persona', async () => {
    expect(await core.call('userModel.delete', { persona: 'main', dimension: 'zodiac' })).toEqual({ deleted: true, trashId: expect.any(String) });
    expect(await core.call('userModel.delete', { persona: 'main', dimension: 'zodiac' })).toEqual({ deleted: false, trashId: null });
    expect((await core.call('userModel.list', { persona: 'coach' })).map((e) => e.dimension)).toEqual(['preferences']);
  });

  it('refuses empty or malformed dimensions and bad confidence with a clear error', async () => {
    for (const bad of [
      { persona: 'main', dimension: '   ', content: 'x' },
      { persona: 'main', dimension: 'a]b', content: 'x' },
      { persona: 'main', dimension: 'x'.repeat(65), content: 'x' },
      { persona: 'main', dimension: 'goals', content: '' },
      { persona: 'main', dimension: 'goals', content: 'x', confidence: 0 },
    ]) {
      expect(await core.dispatch('userModel.upsert', bad)).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    }
    const res = await core.dispatch('userModel.upsert', { persona: 'main', dimension: '', content: 'x' });
    expect(res).toMatchObject({ ok: false, error: { message: expect.stringContaining('dimension name must not be empty') } });
    // model-made arguments reach writeUserModel unchecked: it validates too
    await expect(writeUserModel(core.ctx, 'main', { dimension: '', content: 'x' }, { actor: 'tool' })).rejects.toMatchObject({ code: 'invalid_args' });
    await expect(writeUserModel(core.ctx, 'ghost', { dimension: 'goals', content: 'x' }, { actor: 'tool' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await core.call('userModel.list', { persona: 'main' })).find((e) => e.dimension === 'goals')!.content).toBe('Run a marathon');
  });
});
