import { afterEach, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../testing/core';
import { chatConfig, readSettings } from './store';

let core: TestCore | null = null;
afterEach(async () => {
  await core?.dispose();
  core = null;
});

const KEY = 'sk-test-7f3a9c1e5b2d';

describe('settings', () => {
  it('start from the defaults: local embeddings, review every 8 turns, no keys', async () => {
    core = await makeTestCore();
    expect(await core.call('settings.get', {})).toEqual({
      chat: { baseUrl: null, model: null, apiKey: 'not set' },
      embeddings: { provider: 'local', baseUrl: null, model: 'use-lite-512', dimensions: 512, apiKey: 'not set' },
      reviewEvery: 8,
      contextBudgetTokens: 16_000,
      workspaceDir: null,
      maxIngestBytes: 100 * 1024 * 1024,
      keyStorage: core.ctx.secrets.describe(),
      durableCommits: false,
      backupsKeep: 7,
      trashDays: 30,
      recallRewrite: false,
      welcomeDismissed: false,
      theme: 'system',
    });
    expect(core.ctx.embedder.model()).toBe('local:use-lite-512');
  });

  it('merge partial updates, keep keys out of every answer and out of the database, and survive a restart', async () => {
    core = await makeTestCore();
    const events: string[] = [];
    core.events.subscribe((name) => events.push(name));
    const first = await core.call('settings.set', { chat: { baseUrl: 'http://127.0.0.1:11434/v1/', model: 'llama3', apiKey: KEY } });
    expect(first.chat).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: 'set' });
    expect(events).toContain('settings.changed');

    const second = await core.call('settings.set', { reviewEvery: 3, chat: { model: 'qwen2.5' } });
    expect(second.chat).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5', apiKey: 'set' });
    expect(second.reviewEvery).toBe(3);
    expect(second.contextBudgetTokens).toBe(16_000);

    // The key reaches the chat provider (core-internal), never an answer or the database.
    expect(await chatConfig(core.ctx)).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5', apiKey: KEY });
    for (const answer of [first, second, await core.call('settings.get', {})]) expect(JSON.stringify(answer)).not.toContain(KEY);
    const { rows } = await core.ctx.db.query<{ value: unknown }>('SELECT value FROM settings');
    expect(JSON.stringify(rows)).not.toContain(KEY);

    // Through the envelope every door sees, too.
    const env = await core.dispatch('settings.get', {});
    expect(JSON.stringify(env)).not.toContain(KEY);

    await core.call('settings.set', { chat: { apiKey: null } });
    expect((await core.call('settings.get', {})).chat.apiKey).toBe('not set');
    expect((await chatConfig(core.ctx)).apiKey).toBeNull();

    await core.close();
    const { createCore } = await import('../index');
    const reopened = await createCore({ dataDir: core.dataDir });
    expect((await readSettings(reopened.ctx)).reviewEvery).toBe(3);
    expect((await reopened.call('settings.get', {})).chat.model).toBe('qwen2.5');
    await reopened.close();
  });

  it('reject invalid values with a clear error and change nothing', async () => {
    core = await makeTestCore();
    const before = await core.call('settings.get', {});
    const bad: [unknown, RegExp][] = [
      [{ chat: { baseUrl: 'ftp://example.com' } }, /chat\.baseUrl: must be an http\(s\) URL/],
      [{ chat: { baseUrl: 'not a url' } }, /chat\.baseUrl/],
      [{ embeddings: { provider: 'compatible', baseUrl: 'http://127.0.0.1:1234/v1', model: 'm', dimensions: 2000 } }, /at most 1536/],
      [{ embeddings: { provider: 'compatible', baseUrl: 'http://127.0.0.1:1234/v1', model: 'm' } }, /size of its vectors/],
      [{ embeddings: { provider: 'compatible', model: 'm', dimensions: 768 } }, /needs its base URL/],
      [{ embeddings: { provider: 'openai', dimensions: 512 } }, /1536/],
      [{ embeddings: { provider: 'local', dimensions: 768 } }, /built-in embedder is fixed/],
      [{ reviewEvery: 0 }, /reviewEvery: .*at least 1/],
      [{ contextBudgetTokens: 10 }, /contextBudgetTokens/],
      [{ workspaceDir: 'relative/dir' }, /workspaceDir: must be an absolute path/],
      [{ embeddings: { provider: 'cloud' } }, /embeddings\.provider/],
      [{ theme: 'sepia' }, /theme/],
      [{ colour: 'dark' }, /Unrecognized key|colour/],
    ];
    for (const [patch, message] of bad) {
      const res = await core.dispatch('settings.set', patch);
      expect(res.ok, JSON.stringify(patch)).toBe(false);
      if (!res.ok) {
        expect(res.error.code).toBe('invalid_args');
        expect(res.error.message).toMatch(message);
        // Every refusal names the field it is about, so the form can show it there.
        const issues = (res.error.details as { issues?: { path: string }[] } | undefined)?.issues ?? [];
        expect(issues.length, JSON.stringify(patch)).toBeGreaterThan(0);
      }
    }
    expect(await core.call('settings.get', {})).toEqual(before);
  });

  it('switch the embedding provider: openai defaults, compatible keeps what is not patched', async () => {
    core = await makeTestCore();
    const openai = await core.call('settings.set', { embeddings: { provider: 'openai', apiKey: KEY } });
    expect(openai.embeddings).toEqual({ provider: 'openai', baseUrl: null, model: 'text-embedding-3-small', dimensions: 1536, apiKey: 'set' });
    expect(core.ctx.embedder.model()).toBe('openai:text-embedding-3-small');
    await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', dimensions: 768 } });
    const merged = await core.call('settings.set', { embeddings: { provider: 'compatible', dimensions: 1024 } });
    expect(merged.embeddings).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', dimensions: 1024 });
    expect(core.ctx.embedder.model()).toBe('compatible:nomic-embed-text@127.0.0.1:11434/1024');
    expect(JSON.stringify(merged)).not.toContain(KEY);
    await core.call('settings.set', { embeddings: { provider: 'local' } });
    expect(core.ctx.embedder.model()).toBe('local:use-lite-512');
  });
});
