import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { dispatch } from './dispatch';
import { mcpActor } from '../shared/actor';
import { type Call, handler, type Handlers } from './method';
import { makeTestCore, type TestCore } from './testing/core';

let core: TestCore;
beforeAll(async () => {
  core = await makeTestCore();
});
afterAll(async () => {
  await core.dispose();
});

/** The real handler table with one method swapped for a test double. */
function withHandler(run: (args: unknown, ctx: unknown, call: Call) => Promise<unknown>): Handlers {
  return { ...core.handlers, 'app.info': handler(z.object({}).strict(), run) } as unknown as Handlers;
}

describe('dispatch', () => {
  it('answers unknown methods with unknown_method, including Object.prototype names', async () => {
    for (const method of ['nope.nothing', 'toString', '__proto__', 'constructor']) {
      const res = await core.dispatch(method, {});
      expect(res, method).toEqual({ ok: false, error: { code: 'unknown_method', message: expect.stringContaining('Unknown method') } });
    }
  });

  it('rejects invalid arguments with invalid_args and a message naming the field', async () => {
    const empty = await core.dispatch('personas.create', { name: '   ' });
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    if (empty.ok) throw new Error('unreachable');
    expect(empty.error.message).toMatch(/personas\.create.*name: must not be empty/);

    const imp = await core.dispatch('memories.write', { persona: 'main', content: 'x', importance: 11 });
    expect(imp).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringContaining('importance') } });
    // The same problem by path, for a form to show beside its field.
    expect(imp).toMatchObject({ error: { details: { issues: [{ path: 'importance', message: expect.any(String) }] } } });

    const notObject = await core.dispatch('personas.create', 'Trader');
    expect(notObject).toMatchObject({ ok: false, error: { code: 'invalid_args' } });

    const extra = await core.dispatch('memories.write', { persona: 'main', content: 'x', sneaky: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringContaining('sneaky') } });

    // Nothing was written by any of them.
    expect((await core.call('personas.list', {})).map((p) => p.id)).toEqual(['main']);
    expect((await core.call('memories.list', { persona: 'main' })).total).toBe(0);
  });

  it('turns a throwing handler into an internal envelope instead of throwing', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await dispatch(withHandler(async () => { throw new Error('disk on fire'); }), core.ctx, 'app.info', {});
    quiet.mockRestore();
    expect(res).toEqual({ ok: false, error: { code: 'internal', message: 'Unexpected error in app.info: disk on fire' } });
  });

  it('maps a unique violation to conflict without leaking SQL to the caller', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await dispatch(
      withHandler(() => core.ctx.db.query(`INSERT INTO personas (id, name) VALUES ('main', 'Main again')`)),
      core.ctx,
      'app.info',
      {},
    );
    const log = logged.mock.calls.flat().join(' ');
    logged.mockRestore();
    expect(res).toMatchObject({ ok: false, error: { code: 'conflict' } });
    if (res.ok) throw new Error('unreachable');
    expect(res.error.message).not.toMatch(/INSERT|personas|main|pkey/i);
    // The SQL goes to the log, where a developer can find it.
    expect(log).toContain('INSERT INTO personas');
  });

  it('tells the handler who calls: the actor the door names, "user" by default, never one taken from the arguments', async () => {
    const seen = (_args: unknown, _ctx: unknown, call: Call) => Promise.resolve(call.actor);
    const table = withHandler(seen);
    expect(await dispatch(table, core.ctx, 'app.info', {})).toEqual({ ok: true, data: 'user' });
    expect(await dispatch(table, core.ctx, 'app.info', {}, { actor: 'tool' })).toEqual({ ok: true, data: 'tool' });
    expect(await dispatch(table, core.ctx, 'app.info', {}, { actor: mcpActor(' Claude\nDesktop ') })).toEqual({ ok: true, data: 'mcp:Claude Desktop' });
    // An actor smuggled into the arguments is refused like any unknown field.
    expect(await dispatch(table, core.ctx, 'app.info', { actor: 'review' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
  });

  it('says disk_full when Postgres runs out of space (SQLSTATE 53100), without SQL in the message', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await dispatch(
      withHandler(() => core.ctx.db.exec(`DO $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$`)),
      core.ctx,
      'app.info',
      {},
    );
    quiet.mockRestore();
    expect(res).toMatchObject({ ok: false, error: { code: 'disk_full', message: expect.stringMatching(/disk .* is full/) } });
    if (res.ok) throw new Error('unreachable');
    expect(res.error.message).not.toMatch(/extend|RAISE/);
  });

  it('says disk_full when a file write hits ENOSPC (a write to /dev/full)', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await dispatch(withHandler(() => writeFile('/dev/full', 'bytes')), core.ctx, 'app.info', {});
    quiet.mockRestore();
    expect(res).toMatchObject({ ok: false, error: { code: 'disk_full' } });
  });

  it('returns data in an ok envelope', async () => {
    expect(await core.dispatch('app.info', {})).toMatchObject({ ok: true, data: { storage: 'folder', version: expect.any(String) } });
  });
});
