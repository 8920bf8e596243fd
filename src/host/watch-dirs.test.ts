import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_WATCH_DIRS, resolveWatchFolder } from '../core/knowledge/watch/folder';
import { makeTestCore, type TestCore } from '../core/testing/core';
import { waitFor } from '../core/testing/wait-jobs';
import { watchDirsFrom } from './config';
import { startHostServer, type HostServer } from './server';

const TOKEN = 'watch-dirs-test-token-0123456789';
let core: TestCore;
let host: HostServer;
let allowed: string;
let outside: string;

beforeAll(async () => {
  allowed = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-allowed-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-outside-')));
  mkdirSync(join(allowed, 'notes'));
  writeFileSync(join(allowed, 'notes', 'owl.md'), 'Barn owls hunt by sound alone.');
  symlinkSync(outside, join(allowed, 'escape'));
  core = await makeTestCore({ watchDirs: [allowed] });
  host = await startHostServer({ dispatch: core.dispatch, uploads: core.uploads, events: core.events, token: TOKEN, port: 0, rendererDir: allowed });
});
afterAll(async () => {
  await host?.close();
  await core?.dispose();
  rmSync(allowed, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function api(method: string, args: unknown): Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }> {
  const res = await fetch(`http://127.0.0.1:${host.port}/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await res.json()) as { ok: boolean; error?: { code: string; message: string } };
}

describe('the browser host watches only folders inside the ones named at its launch', () => {
  it('reads HEARTH_WATCH_DIRS (separated like PATH) and every --watch-dir', () => {
    expect(watchDirsFrom(['--watch-dir', '/a', '--watch-dir=rel/b'], { HEARTH_WATCH_DIRS: ['/c', '', '/a'].join(delimiter) })).toEqual([
      '/a',
      resolve('rel/b'),
      '/c',
    ]);
    expect(watchDirsFrom([], {})).toEqual([]);
    expect(() => watchDirsFrom(['--watch-dir'], {})).toThrow(/needs a folder/);
  });

  it('refuses a folder outside them, also one reached through a symlink inside, and accepts one inside', async () => {
    const refused = await api('knowledge.watch', { persona: 'main', folder: outside });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(refused.error!.message).toContain('HEARTH_WATCH_DIRS');
    expect(await api('knowledge.watch', { persona: 'main', folder: join(allowed, 'escape') })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await api('knowledge.watch', { persona: 'main', folder: join(allowed, 'notes', '..', '..') })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await api('knowledge.watches', { persona: 'main' })).toMatchObject({ ok: true, data: { watches: [], allowedDirs: [allowed] } });

    expect(await api('knowledge.watch', { persona: 'main', folder: join(allowed, 'notes') })).toMatchObject({ ok: true, data: { folder: join(allowed, 'notes'), label: 'notes' } });
    // Read into this core's database (a PostgreSQL server too, under scripts/test-servers.mjs).
    await waitFor(async () => (await core.call('knowledge.watches', { persona: 'main' })).watches[0]?.counts.ingested === 1, 'the note to be ingested', 30_000);
    expect((await core.call('knowledge.listSources', { persona: 'main' })).map((x) => x.source)).toEqual(['notes/owl.md']);
    expect(await api('knowledge.unwatch', { persona: 'main', folder: join(allowed, 'notes') })).toMatchObject({ ok: true, data: { unwatched: true } });
  });

  it('without watch folders, refuses every folder and says how to allow them', async () => {
    await expect(resolveWatchFolder(allowed, [])).rejects.toMatchObject({ code: 'forbidden', message: NO_WATCH_DIRS });
    expect(NO_WATCH_DIRS).toMatch(/HEARTH_WATCH_DIRS.*--watch-dir/);
  });
});
