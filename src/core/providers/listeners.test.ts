import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installChatRoutes } from '../testing/fake-openai/chat';
import { type FakeEmbeddings, installEmbeddings } from '../testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../testing/fake-openai/server';
import { OpenAiEmbedder } from './embeddings/openai';
import { OpenAiChatProvider } from './llm/openai';

// The job runner hands every job the same signal, alive as long as the app.
// Each request must leave it as it found it, or listeners pile up (≈3 KB each).

let server: FakeServer;
let fake: FakeEmbeddings;
const warnings: string[] = [];
const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
beforeAll(async () => {
  server = await startFakeServer();
  fake = installEmbeddings(server, { dimensions: 16 });
  installChatRoutes(server);
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await server.close();
});

const listeners = (s: AbortSignal) => getEventListeners(s, 'abort').length;

describe('requests on a long-lived abort signal', () => {
  it('3,000 embedding requests leave its listener count flat', async () => {
    const embedder = new OpenAiEmbedder({
      config: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 },
      apiKey: null,
      timeoutMs: 30_000,
    });
    const appLifetime = new AbortController();
    const before = listeners(appLifetime.signal);
    let most = 0;
    const lanes = 10;
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < 3000) {
          const i = next++;
          const [v] = await embedder.embed([`text number ${i}`], { signal: appLifetime.signal });
          expect(v).toHaveLength(16);
          most = Math.max(most, listeners(appLifetime.signal));
        }
      }),
    );
    const after = listeners(appLifetime.signal);
    console.log(`abort listeners on the shared signal: ${before} before, at most ${most} during (${lanes} in flight), ${after} after 3,000 requests`);
    expect(fake.requests.length).toBeGreaterThanOrEqual(3000);
    expect(after).toBe(before);
    expect(most).toBeLessThanOrEqual(lanes);
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  }, 300_000);

  it('aborting the shared signal still stops a request in flight', async () => {
    const embedder = new OpenAiEmbedder({
      config: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 },
      apiKey: null,
      timeoutMs: 30_000,
    });
    const app = new AbortController();
    fake.push({ hang: true });
    const pending = embedder.embed(['never answered'], { signal: app.signal });
    await fake.nextRequest().catch(() => undefined);
    app.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(listeners(app.signal)).toBe(0);
  });

  it('chat requests (the review and compaction jobs) leave it flat too', async () => {
    const chat = new OpenAiChatProvider({ baseUrl: server.baseURL, model: 'fake-chat', apiKey: null, maxRetries: 0 });
    const app = new AbortController();
    for (let i = 0; i < 50; i++) {
      await chat.chat([{ role: 'user', content: `hello ${i}` }], [], { signal: app.signal });
      await chat.chat([{ role: 'user', content: `stream ${i}` }], [], { signal: app.signal, onToken: () => undefined });
    }
    expect(listeners(app.signal)).toBe(0);
  });
});
