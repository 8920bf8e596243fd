import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { installChatRoutes } from '../testing/fake-openai/chat';
import { installEmbeddings } from '../testing/fake-openai/embeddings';
import { installModels } from '../testing/fake-openai/models';
import { type FakeServer, startFakeServer } from '../testing/fake-openai/server';
import { makeTestCore, type TestCore } from '../testing/core';
import { waitForJobs } from '../testing/wait-jobs';

const CHAT_KEY = 'sk-chat-OLD-1c7e93a05b';
const EMB_KEY = 'sk-emb-OLD-84d2f61b9e';

let core: TestCore | null = null;
let servers: FakeServer[] = [];
afterEach(async () => {
  await core?.dispose();
  core = null;
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A fake OpenAI-compatible server answering chat and 16-d embeddings, recording each Authorization header. */
async function server(): Promise<FakeServer> {
  const s = await startFakeServer();
  installChatRoutes(s);
  installEmbeddings(s, { dimensions: 16 });
  servers.push(s);
  return s;
}

const auths = (s: FakeServer, from = 0) => s.requests.slice(from).map((r) => r.authorization);
const everyAuth = () => servers.flatMap((s) => auths(s));

async function chatOnce(c: TestCore, text: string): Promise<void> {
  await c.call('chat.send', { persona: 'main', text });
}

async function embedOnce(c: TestCore, content: string): Promise<void> {
  await c.call('memories.write', { persona: 'main', content });
  const jobs = await waitForJobs(c);
  expect(jobs.at(-1)?.state).toBe('completed');
}

describe('API keys belong to the server they were entered for', () => {
  it('a changed chat or embeddings URL forgets the key: the old key is never sent anywhere again', async () => {
    const a = await server();
    const b = await server();
    core = await makeTestCore({ jobs: { backoffBaseMs: 20, pollMs: 50 } });
    await core.call('settings.set', {
      chat: { baseUrl: a.baseURL, model: 'fake-chat', apiKey: CHAT_KEY },
      embeddings: { provider: 'compatible', baseUrl: a.baseURL, model: 'fake-embed', dimensions: 16, apiKey: EMB_KEY },
    });
    await chatOnce(core, 'hello');
    await embedOnce(core, 'The user keeps bees.');
    // Before the change the keys go where they were entered for.
    expect(auths(a)).toContain(`Bearer ${CHAT_KEY}`);
    expect(auths(a)).toContain(`Bearer ${EMB_KEY}`);
    const seenByA = a.requests.length;

    const view = await core.call('settings.set', {
      chat: { baseUrl: b.baseURL },
      embeddings: { provider: 'compatible', baseUrl: b.baseURL },
    });
    expect(view.chat.apiKey).toBe('not set');
    expect(view.embeddings.apiKey).toBe('not set');

    await chatOnce(core, 'hello again');
    await embedOnce(core, 'The user keeps goats.');
    await core.call('embeddings.backfill', {});
    await waitForJobs(core);
    await core.call('recall', { persona: 'main', query: 'goats' });

    expect(b.requests.length).toBeGreaterThanOrEqual(3); // a chat, an embedding and a recall query at least
    expect(a.requests.length).toBe(seenByA);
    for (const h of auths(b)) expect(h).toBe('Bearer not-needed');
    // Switching back to the first server does not bring the key back either.
    await core.call('settings.set', { chat: { baseUrl: a.baseURL } });
    expect((await core.call('settings.get', {})).chat.apiKey).toBe('not set');
    await chatOnce(core, 'and back');
    expect(auths(a, seenByA).length).toBeGreaterThan(0);
    for (const h of auths(a, seenByA)) expect(h).toBe('Bearer not-needed');
    // Nor is it left behind in the secret store.
    expect(readFileSync(join(core.dataDir, 'secrets.json'), 'utf8')).not.toMatch(/OLD/);
  });

  it('changing only the model keeps the key; a key typed with a new URL belongs to the new server', async () => {
    const a = await server();
    const b = await server();
    core = await makeTestCore();
    await core.call('settings.set', { chat: { baseUrl: a.baseURL, model: 'fake-chat', apiKey: CHAT_KEY } });
    expect((await core.call('settings.set', { chat: { model: 'other-model' } })).chat.apiKey).toBe('set');
    await chatOnce(core, 'hello');
    expect(auths(a)).toEqual([`Bearer ${CHAT_KEY}`]);

    const NEW = 'sk-chat-NEW-55aa0e';
    expect((await core.call('settings.set', { chat: { baseUrl: b.baseURL, apiKey: NEW } })).chat.apiKey).toBe('set');
    await chatOnce(core, 'hello b');
    expect(auths(b)).toEqual([`Bearer ${NEW}`]);
    expect(everyAuth().filter((h) => h === `Bearer ${CHAT_KEY}`)).toHaveLength(1);
  });

  it('a provider change forgets the embeddings key even on the same URL', async () => {
    const a = await server();
    core = await makeTestCore({ jobs: { backoffBaseMs: 20, pollMs: 50 } });
    // "OpenAI" at a custom URL (a proxy), then the same URL as a compatible server.
    await core.call('settings.set', { embeddings: { provider: 'openai', baseUrl: a.baseURL, apiKey: EMB_KEY } });
    expect((await core.call('settings.get', {})).embeddings.apiKey).toBe('set');
    const view = await core.call('settings.set', {
      embeddings: { provider: 'compatible', baseUrl: a.baseURL, model: 'fake-embed', dimensions: 16 },
    });
    expect(view.embeddings.apiKey).toBe('not set');
    await embedOnce(core, 'The user sails on Sundays.');
    expect(auths(a).length).toBeGreaterThan(0);
    expect(auths(a)).not.toContain(`Bearer ${EMB_KEY}`);
  });

  it('settings changed behind the API (a restored backup) do not carry the key to the other server', async () => {
    const a = await server();
    const b = await server();
    core = await makeTestCore();
    await core.call('settings.set', { chat: { baseUrl: a.baseURL, model: 'fake-chat', apiKey: CHAT_KEY } });
    await core.ctx.db.query(`UPDATE settings SET value = $1 WHERE key = 'chat'`, [
      JSON.stringify({ baseUrl: b.baseURL, model: 'fake-chat' }),
    ]);
    expect((await core.call('settings.get', {})).chat.apiKey).toBe('not set');
    await chatOnce(core, 'hello');
    expect(auths(b)).toEqual(['Bearer not-needed']);
    expect(everyAuth()).not.toContain(`Bearer ${CHAT_KEY}`);
  });

  it('a key stored by an older Hearth (no server recorded) is bound to the configured server at start-up', async () => {
    const a = await server();
    const b = await server();
    core = await makeTestCore();
    await core.call('settings.set', {
      chat: { baseUrl: a.baseURL, model: 'fake-chat' },
      embeddings: { provider: 'compatible', baseUrl: a.baseURL, model: 'fake-embed', dimensions: 16 },
    });
    await core.close();
    writeFileSync(join(core.dataDir, 'secrets.json'), JSON.stringify({ 'chat.apiKey': CHAT_KEY }), { mode: 0o600 });
    const reopened = await createCore({ dataDir: core.dataDir });
    try {
      expect((await reopened.call('settings.get', {})).chat.apiKey).toBe('set');
      await reopened.call('chat.send', { persona: 'main', text: 'hi' });
      expect(auths(a).filter((h) => h !== 'Bearer not-needed')).toEqual([`Bearer ${CHAT_KEY}`]);
      await reopened.call('settings.set', { chat: { baseUrl: b.baseURL } });
      await reopened.call('chat.send', { persona: 'main', text: 'hi b' });
      expect(auths(b)).toEqual(['Bearer not-needed']);
      expect(auths(a).filter((h) => h === `Bearer ${CHAT_KEY}`)).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  }, 180_000);
  it('Test connection on unsaved values sends the stored key only to the server it was entered for, and saves nothing', async () => {
    const a = await server();
    const b = await server();
    installModels(b, ['b-chat', 'b-large']);
    core = await makeTestCore();
    await core.call('settings.set', { chat: { baseUrl: a.baseURL, model: 'fake-chat', apiKey: CHAT_KEY } });

    // Another server typed in the form, no key typed: the stored key stays home.
    const other = await core.call('settings.testConnection', { which: 'chat', chat: { baseUrl: b.baseURL, model: 'b-chat' } });
    expect(other).toMatchObject({ ok: true, models: ['b-chat', 'b-large'] });
    expect(other.ok && other.detail).toMatch(/^b-chat answered/);
    expect(auths(b).length).toBeGreaterThan(0);
    expect(everyAuth()).not.toContain(`Bearer ${CHAT_KEY}`);

    // The same server (written with a trailing slash) with another model: its stored key goes with it.
    const same = await core.call('settings.testConnection', { which: 'chat', chat: { baseUrl: `${a.baseURL}/`, model: 'fake-chat-2' } });
    expect(same.ok).toBe(true);
    expect(a.requests.at(-1)!.authorization).toBe(`Bearer ${CHAT_KEY}`);

    // A key typed in the form is used for the test, and neither it nor the URL is kept.
    const TYPED = 'sk-typed-7f3e';
    await core.call('settings.testConnection', { which: 'chat', chat: { baseUrl: b.baseURL, model: 'b-chat', apiKey: TYPED } });
    expect(b.requests.at(-1)!.authorization).toBe(`Bearer ${TYPED}`);
    const view = await core.call('settings.get', {});
    expect(view.chat).toMatchObject({ baseUrl: a.baseURL, model: 'fake-chat', apiKey: 'set' });
    expect(readFileSync(join(core.dataDir, 'secrets.json'), 'utf8')).not.toContain(TYPED);

    // A URL that is not one is refused before anything is sent.
    const bad = await core.dispatch('settings.testConnection', { which: 'chat', chat: { baseUrl: 'ftp://x', model: 'm' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
  });
});
