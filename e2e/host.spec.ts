import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { expect, type Host, test } from './fixtures';
import { spawnHost } from './host-process';

/** A raw HTTP request, so the test controls Host and Origin (fetch will not send a foreign Host). */
function raw(port: number, opts: { path: string; method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: opts.path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const createBody = JSON.stringify({ name: 'Intruder' });

async function personaNames(host: { call: (m: 'personas.list', a: Record<string, never>) => Promise<{ name: string }[]> }) {
  return (await host.call('personas.list', {})).map((p) => p.name);
}

function openSocket(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ ws: WebSocket } | { status: number }>((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once('error', reject);
  });
}

// Requests that must change nothing, or only what they name: on the worker's shared host (a host
// start each would be most of their time); each compares with what it saw before it asked.
test.describe('one host answering requests', () => {
  let host: Host;
  test.beforeAll(async ({ workerHost }) => {
    host = await workerHost();
  });

  test('the API answers with the token: a created persona is listed', async () => {
    const before = await personaNames(host);
    const created = await host.api('personas.create', { name: 'Trader' });
    expect(created).toMatchObject({ ok: true, data: { id: 'trader', name: 'Trader' } });
    expect((await personaNames(host)).sort()).toEqual([...before, 'Trader'].sort());
    const dup = await host.api('personas.create', { name: 'trader' });
    expect(dup).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  test('a request without the token is refused with 401 and changes nothing', async () => {
    const before = await personaNames(host);
    const res = await raw(host.port, { path: '/api/personas.create', method: 'POST', headers: { host: `127.0.0.1:${host.port}`, 'content-type': 'application/json' }, body: createBody });
    expect(res.status).toBe(401);
    expect(await personaNames(host)).toEqual(before);
  });

  test('a wrong token is refused with 401, for the API and for the page', async () => {
    const before = await personaNames(host);
    const api = await fetch(`${host.baseUrl}/api/personas.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token.slice(0, -1)}x`, 'content-type': 'application/json' },
      body: createBody,
    });
    expect(api.status).toBe(401);
    expect((await fetch(`${host.baseUrl}/?token=not-the-token`)).status).toBe(401);
    expect((await fetch(`${host.baseUrl}/`)).status).toBe(401);
    expect(await personaNames(host)).toEqual(before);
  });

  test('a foreign Origin is refused with 403 even with the right token', async () => {
    const before = await personaNames(host);
    const res = await raw(host.port, {
      path: '/api/personas.create',
      method: 'POST',
      headers: { host: `127.0.0.1:${host.port}`, origin: 'http://evil.example', authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: createBody,
    });
    expect(res.status).toBe(403);
    // Another local server (another port) is a different origin too.
    const otherPort = await raw(host.port, {
      path: '/api/personas.create',
      method: 'POST',
      headers: { host: `127.0.0.1:${host.port}`, origin: `http://127.0.0.1:${host.port + 1}`, authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: createBody,
    });
    expect(otherPort.status).toBe(403);
    expect(await personaNames(host)).toEqual(before);
  });

  test('a foreign Host header (DNS rebinding) is refused with 403', async () => {
    const before = await personaNames(host);
    for (const foreign of ['evil.example', `evil.example:${host.port}`, `127.0.0.1:${host.port + 1}`]) {
      const res = await raw(host.port, {
        path: '/api/personas.create',
        method: 'POST',
        headers: { host: foreign, authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
        body: createBody,
      });
      expect(res.status, foreign).toBe(403);
    }
    const page = await raw(host.port, { path: `/?token=${host.token}`, headers: { host: 'evil.example' } });
    expect(page.status).toBe(403);
    expect(await personaNames(host)).toEqual(before);
  });

  test('oversize bodies get 413, unknown paths 404, bad JSON an envelope', async () => {
    const before = await personaNames(host);
    const big = await fetch(`${host.baseUrl}/api/personas.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect((await fetch(`${host.baseUrl}/no-such-page?token=${host.token}`)).status).toBe(404);
    const bad = await fetch(`${host.baseUrl}/api/personas.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(await personaNames(host)).toEqual(before);
  });

  test('the events WebSocket needs the token and our Origin, then pushes core events', async () => {
    const wsBase = host.baseUrl.replace('http', 'ws');
    expect(await openSocket(`${wsBase}/events`)).toEqual({ status: 401 });
    expect(await openSocket(`${wsBase}/events?token=wrong-token-wrong-token`)).toEqual({ status: 401 });
    expect(await openSocket(`${wsBase}/events?token=${host.token}`, { origin: 'http://evil.example' })).toEqual({ status: 403 });

    const ok = await openSocket(`${wsBase}/events?token=${host.token}`, { origin: host.baseUrl });
    if (!('ws' in ok)) throw new Error(`socket refused: ${ok.status}`);
    // The shared host may still be finishing other tests' work (embedding jobs): their events come too.
    const event = new Promise<unknown>((resolve) =>
      ok.ws.on('message', (d) => {
        const e = JSON.parse(String(d)) as { name: string };
        if (e.name === 'personas.changed') resolve(e);
      }),
    );
    await host.call('personas.create', { name: 'Writer' });
    expect(await event).toEqual({ name: 'personas.changed', payload: { persona: 'writer' } });
    ok.ws.close();
  });
});

// Reads the page and its headers only: on the worker's shared host (e2e/README.md).
test.describe('the page', () => {
  test.use({ sharedHost: true });

  test('the page is served with the token under a strict CSP, and its assets need the token too', async ({ host, page, openApp }) => {
    const response = await page.goto(host.url);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    await expect(page).toHaveTitle(/Hearth/);
    await expect(page.locator('#root')).not.toBeEmpty();

    // The script the page loads is refused to a client without the token or the page's cookie.
    const script = await page.locator('script[type=module]').first().getAttribute('src');
    expect(script).toBeTruthy();
    const assetUrl = new URL(script!, host.baseUrl).href;
    expect((await fetch(assetUrl)).status).toBe(401);

    // The token leaves the address bar but a reload keeps working.
    await expect(page).not.toHaveURL(/token=/);
    await page.reload();
    await expect(page.locator('#root')).not.toBeEmpty();

    await openApp(page);
    await expect(page).toHaveTitle(/Hearth/);
  });
});

test('data survives a restart, and a second host on the same data refuses to start', async ({ host }) => {
  // Two host starts (the refused second one, the restart) and a clean stop: each can take most of a
  // minute on a loaded machine (one full run at load average 29 ran out of the default 120 s).
  test.setTimeout(240_000);
  await host.call('personas.create', { name: 'Trader' });
  await host.call('memories.write', { persona: 'trader', content: 'Prefers limit orders' });

  const second = spawnHost({ dataDir: host.dataDir, token: host.token });
  await expect(second).rejects.toThrow(/exited \(code 1\)[\s\S]*already in use by another Hearth/);

  await host.restart();
  expect(await personaNames(host)).toEqual(['main', 'Trader']);
  const page = await host.call('memories.list', { persona: 'trader' });
  expect(page.items.map((m) => m.content)).toEqual(['Prefers limit orders']);
});
