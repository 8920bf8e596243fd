// The workspace folder is what the chat's model may make Hearth read, so the
// page never names it (docs/security.md, "The page cannot make Hearth read the
// disk"): the browser host takes it from its launch option only, the desktop
// app from its own folder dialog only. Clearing it is always allowed.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDirFrom } from '../core';
import { makeTestCore, type TestCore } from '../core/testing/core';
import { pageDoor } from '../main/door';
import { GrantedPaths } from '../main/granted-paths';
import { startHostServer, type HostServer } from './server';

const TOKEN = 'workspace-door-token-0123456789abcdef';
let core: TestCore;
let host: HostServer;
let dir: string;

beforeAll(async () => {
  core = await makeTestCore({ queues: {} });
  dir = mkdtempSync(join(tmpdir(), 'hearth-workspace-door-'));
  host = await startHostServer({ dispatch: core.dispatch, uploads: core.uploads, events: core.events, token: TOKEN, port: 0, rendererDir: dir });
}, 120_000);
afterAll(async () => {
  await host?.close();
  await core?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function post(method: string, args: unknown): Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }> {
  const res = await fetch(`http://127.0.0.1:${host.port}/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await res.json()) as { ok: boolean; error?: { code: string; message: string } };
}

describe('the browser host', () => {
  it('never takes the workspace folder from the page, whatever else the call changes; it may clear it', async () => {
    const before = await core.call('settings.get', {});
    for (const workspaceDir of ['/tmp', dir, '/nonexistent', 'relative', 42]) {
      const answer = await post('settings.set', { workspaceDir, reviewEvery: 3 });
      expect(answer, String(workspaceDir)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(answer.error!.message).toMatch(/--workspace-dir or HEARTH_WORKSPACE_DIR/);
    }
    const after = await core.call('settings.get', {});
    expect(after.workspaceDir).toBe(before.workspaceDir);
    expect(after.reviewEvery).toBe(before.reviewEvery);
    // Other settings still save; so does "no workspace".
    expect(await post('settings.set', { reviewEvery: 4 })).toMatchObject({ ok: true });
    expect(await post('settings.set', { workspaceDir: null })).toMatchObject({ ok: true, data: { workspaceDir: null } });
  });

  it('takes it from --workspace-dir or HEARTH_WORKSPACE_DIR', () => {
    expect(workspaceDirFrom(['--workspace-dir', '/srv/notes'], {})).toBe('/srv/notes');
    expect(workspaceDirFrom(['--workspace-dir=/srv/a'], { HEARTH_WORKSPACE_DIR: '/srv/b' })).toBe('/srv/a');
    expect(workspaceDirFrom([], { HEARTH_WORKSPACE_DIR: '/srv/b' })).toBe('/srv/b');
    expect(workspaceDirFrom([], {})).toBeNull();
  });
});

describe('the desktop app', () => {
  it('takes only a folder the user chose in its dialog this session', async () => {
    const grants = new GrantedPaths();
    const door = pageDoor(core.dispatch, grants);
    const chosen = join(dir, 'chosen');
    mkdirSync(chosen);
    const typed = await door('settings.set', { workspaceDir: chosen });
    expect(typed).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/Choose folder/) } });
    expect((await core.call('settings.get', {})).workspaceDir).toBeNull();
    // What the folder dialog does (src/main/ipc.ts): the chosen folder is granted, then saved.
    grants.grant(chosen);
    expect(await door('settings.set', { workspaceDir: chosen })).toMatchObject({ ok: true, data: { workspaceDir: chosen } });
    // A path that only resolves to the chosen one is not it.
    expect(await door('settings.set', { workspaceDir: `${chosen}/../chosen` })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await door('settings.set', { workspaceDir: null })).toMatchObject({ ok: true, data: { workspaceDir: null } });
  });
});

describe('what the page is told', () => {
  it('app.info names no path of the computer Hearth runs on', async () => {
    const info = await post('app.info', {});
    expect(info).toMatchObject({ ok: true, data: { storage: 'folder' } });
    expect(JSON.stringify(info)).not.toContain(core.dataDir);
  });
});
