import { type FakeChat, installChatRoutes } from './fake-openai/chat';
import { type FakeEmbeddings, installEmbeddings } from './fake-openai/embeddings';
import { type FakeServer, startFakeServer } from './fake-openai/server';
import { makeTestCore, type TestCore } from './core';

export interface ChatFixture {
  core: TestCore;
  server: FakeServer;
  fake: FakeChat;
  embeddings: FakeEmbeddings;
  /** Every event the core pushed, in order. */
  events: { name: string; payload: unknown }[];
  dispose(): Promise<void>;
}

/** A real core on a temp PGlite whose chat model is the fake server. */
export async function chatFixture(settings: { reviewEvery?: number; contextBudgetTokens?: number } = {}): Promise<ChatFixture> {
  const server = await startFakeServer();
  const fake = installChatRoutes(server);
  const embeddings = installEmbeddings(server, { dimensions: 16 });
  // Retries in milliseconds, so a failed job's retry shows up within a test.
  const core = await makeTestCore({ jobs: { backoffBaseMs: 50, backoffMaxMs: 200, pollMs: 100 } });
  await core.call('settings.set', {
    chat: { baseUrl: server.baseURL, model: 'fake-chat' },
    // A fake embedder too: real vectors for the review's cosine dedupe, without loading the local model.
    embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 },
    ...settings,
  });
  const events: ChatFixture['events'] = [];
  core.events.subscribe((name, payload) => events.push({ name, payload }));
  return {
    core,
    server,
    fake,
    embeddings,
    events,
    async dispose() {
      await core.dispose();
      await server.close();
    },
  };
}
