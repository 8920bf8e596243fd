import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, type UploadSink } from '../core';
import { contentSecurityPolicy, metaContentSecurityPolicy } from '../shared/csp';
import { startHostServer, type HostServer } from './server';

const TOKEN = 'csp-test-token-0123456789abcdef';
const page = readFileSync(join(import.meta.dirname, '../renderer/index.html'), 'utf8');
let dir: string;
let host: HostServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-csp-'));
  writeFileSync(join(dir, 'index.html'), page);
  host = await startHostServer({
    dispatch: async () => ({ ok: true, data: null }),
    uploads: {} as UploadSink, // not reached: this test only loads the page
    events: new EventBus(),
    token: TOKEN,
    port: 0,
    rendererDir: dir,
  });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

function metaPolicy(html: string): string | null {
  return /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? null;
}

describe('one Content-Security-Policy for the page, wherever it is loaded', () => {
  it("the page's own meta policy equals the browser host's header, both from src/shared/csp.ts", async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/?token=${TOKEN}`);
    expect(res.status).toBe(200);
    const header = res.headers.get('content-security-policy');
    expect(header).toBe(contentSecurityPolicy());
    // The meta copy leaves out only frame-ancestors (ignored in a meta tag, with a console error).
    expect(metaPolicy(await res.text())).toBe(metaContentSecurityPolicy());
    expect(header!.split('; ').filter((d) => !d.startsWith('frame-ancestors')).join('; ')).toBe(metaContentSecurityPolicy());
  });

  it('is strict: no inline script or style, no eval, network only to the app itself', () => {
    const directives = Object.fromEntries(
      contentSecurityPolicy()
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });
});
