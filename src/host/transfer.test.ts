import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDir } from '../core/knowledge/staging';
import { exportsDir } from '../core/portable/export';
import { makeTestCore, type TestCore } from '../core/testing/core';
import { waitFor } from '../core/testing/wait-jobs';
import { startHostServer, type HostServer } from './server';

// The browser host's side of export and import: a one-time, token-guarded
// download, and an import whose file arrives as streamed base64.

const TOKEN = 'transfer-test-token-0123456789abcdef';
let core: TestCore;
let host: HostServer;
let dir: string;

beforeAll(async () => {
  core = await makeTestCore();
  dir = mkdtempSync(join(tmpdir(), 'hearth-transfer-test-'));
  host = await startHostServer({
    dispatch: core.dispatch,
    uploads: core.uploads,
    imports: core.imports,
    events: core.events,
    token: TOKEN,
    port: 0,
    rendererDir: dir,
  });
  await core.call('personas.create', { name: 'Reisen' });
  await core.call('memories.write', { persona: 'reisen', content: 'Zug nach Zürich um 7:04' });
}, 120_000);
afterAll(async () => {
  await host?.close();
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, body: unknown) =>
  fetch(`http://127.0.0.1:${host.port}/api/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } }>);

describe('browser host export and import', () => {
  let file: Buffer;

  it('export answers a one-time download URL, never a path on this computer', async () => {
    const res = await api('personas.export', { id: 'reisen' });
    expect(res.ok).toBe(true);
    expect(res.data).toEqual({ name: 'Reisen.hearth', bytes: expect.any(Number), url: expect.stringMatching(/^\/download\/[\w-]{20,}$/) });
    const url = `http://127.0.0.1:${host.port}${res.data!.url as string}`;
    expect((await fetch(url)).status).toBe(401); // no token
    const got = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toContain('Reisen.hearth');
    file = Buffer.from(await got.arrayBuffer());
    expect(file.length).toBe(res.data!.bytes);
    expect(gunzipSync(file).toString()).toContain('Zug nach Zürich');
    // once only, and nothing left in the data folder
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await waitFor(async () => readdirSync(exportsDir(core.ctx)).length === 0, 'the served export to be removed');
  });

  it('import takes the uploaded bytes, refuses a path, and leaves no staged copy', async () => {
    expect(await api('personas.import', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const res = await api('personas.import', { name: 'Reisen.hearth', dataBase64: file.toString('base64') });
    expect(res).toMatchObject({ ok: true, data: { persona: { name: 'Reisen (2)', counts: { memories: 1 } } } });
    const bad = await api('personas.import', { name: 'x.hearth', dataBase64: file.subarray(0, 30).toString('base64') });
    expect(bad).toMatchObject({ ok: false, error: { code: 'import_error', message: expect.stringMatching(/cut short/) } });
    expect(readdirSync(uploadsDir(core.ctx))).toEqual([]);
    expect((await core.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Reisen', 'Reisen (2)']);
  }, 60_000);
});
