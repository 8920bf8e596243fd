import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../core/testing/core';
import { startHostServer, type HostServer } from './server';

// personas.import through the browser host: a body declared larger than a
// persona file can be is refused from its Content-Length, before it is read
// (docs/export.md, "Limits").

const TOKEN = 'import-upload-test-token-0123456789';
let core: TestCore;
let host: HostServer;
let dir: string;

beforeAll(async () => {
  core = await makeTestCore();
  dir = mkdtempSync(join(tmpdir(), 'hearth-import-upload-'));
  host = await startHostServer({
    dispatch: core.dispatch, events: core.events, uploads: core.uploads, imports: core.imports, token: TOKEN, port: 0, rendererDir: dir,
  });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await core?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends the headers and `head` only, never the rest: an answer can only be one given before the body was read. */
function declare(length: number, head: string): Promise<{ status: number; body: { ok: boolean; error?: { code: string; message: string } } }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: host.port, method: 'POST', path: '/api/personas.import', agent: false,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': String(length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.write(head);
  });
}

describe('personas.import over the browser host', () => {
  it('a declared 5 GB body is refused with 413 before it is read', async () => {
    const res = await declare(5_000_000_000, '{"name":"huge.hearth","dataBase64":"H4sI');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringMatching(/the most a persona file can be\. Nothing was imported/) } });
    expect((await core.call('personas.list', {})).map((p) => p.id)).toEqual(['main']);
  }, 30_000);
});
