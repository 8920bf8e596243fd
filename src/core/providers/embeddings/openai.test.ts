import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeEmbeddings, fakeVector, installEmbeddings } from '../../testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../../testing/fake-openai/server';
import type { EmbeddingConfig } from './config';
import { OpenAiEmbedder } from './openai';

let server: FakeServer;
let fake: FakeEmbeddings;
beforeEach(async () => {
  server = await startFakeServer();
  fake = installEmbeddings(server, { dimensions: 1536 });
});
afterEach(async () => {
  await server.close();
});

const TEXTS = ['black coffee at dawn', 'jazz records', 'a walk by the river'];

function openai(apiKey: string | null = 'sk-embed-123', timeoutMs = 5_000): OpenAiEmbedder {
  const config: EmbeddingConfig = { provider: 'openai', baseUrl: server.baseURL, model: 'text-embedding-3-small', dimensions: 1536 };
  return new OpenAiEmbedder({ config, apiKey, timeoutMs });
}

function compatible(dimensions: number, timeoutMs = 5_000): OpenAiEmbedder {
  const config: EmbeddingConfig = { provider: 'compatible', baseUrl: server.baseURL, model: 'nomic-embed-text', dimensions };
  return new OpenAiEmbedder({ config, apiKey: null, timeoutMs });
}

describe('OpenAI and compatible embedders', () => {
  it('OpenAI: asks for 1536 dimensions (base64 on the wire, with the key) and returns vectors in input order', async () => {
    const p = openai();
    expect(p.model).toBe('openai:text-embedding-3-small');
    const vectors = await p.embed(TEXTS);
    const req = fake.requests[0]!;
    expect(req).toMatchObject({ model: 'text-embedding-3-small', input: TEXTS, dimensions: 1536, encoding_format: 'base64' });
    expect(server.requests[0]!.authorization).toBe('Bearer sk-embed-123');
    // The fake answers in reverse order: the result must follow the indexes.
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(fakeVector(TEXTS[i]!, 1536))));
  });

  it('compatible server: floats on the wire, declared size, tagged with model, host and size', async () => {
    fake.dimensions = 768;
    const p = compatible(768);
    expect(p.model).toBe(`compatible:nomic-embed-text@${new URL(server.baseURL).host}/768`);
    const vectors = await p.embed(TEXTS);
    expect(fake.requests[0]).toMatchObject({ model: 'nomic-embed-text', encoding_format: 'float' });
    expect(fake.requests[0]!.dimensions).toBeUndefined();
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(fakeVector(TEXTS[i]!, 768))));
  });

  it('rejects a response of the wrong size or count', async () => {
    fake.push({ wrongDimension: 1024 }, { wrongCount: true });
    await expect(openai().embed(TEXTS)).rejects.toMatchObject({ code: 'embedding_dimension', message: expect.stringMatching(/1024 dimensions/) });
    await expect(openai().embed(TEXTS)).rejects.toMatchObject({ code: 'embedding_dimension', message: expect.stringMatching(/2 vectors for 3 texts/) });
  });

  it('turns HTTP failures, timeouts, refused connections and a missing key into clear errors', async () => {
    fake.push({ fail: 500 }, { fail: 401 }, { fail: 429 });
    await expect(openai().embed(TEXTS)).rejects.toMatchObject({ code: 'provider_error', message: expect.stringMatching(/HTTP 500/) });
    await expect(openai().embed(TEXTS)).rejects.toMatchObject({ code: 'provider_auth' });
    await expect(openai().embed(TEXTS)).rejects.toMatchObject({ code: 'provider_error', message: expect.stringMatching(/HTTP 429/) });

    fake.push({ hang: true });
    const t0 = performance.now();
    await expect(openai('sk', 300).embed(TEXTS)).rejects.toMatchObject({ code: 'provider_unreachable', message: expect.stringMatching(/in time/) });
    expect(performance.now() - t0).toBeLessThan(5_000);

    fake.push({ hang: true });
    const ac = new AbortController();
    const pending = openai().embed(TEXTS, { signal: ac.signal });
    await fake.nextRequest();
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });

    const closed = new OpenAiEmbedder({
      config: { provider: 'compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', dimensions: 8 },
      apiKey: null,
      timeoutMs: 5_000,
    });
    await expect(closed.embed(['x'])).rejects.toMatchObject({ code: 'provider_unreachable', message: expect.stringMatching(/127\.0\.0\.1:9/) });

    await expect(openai(null).embed(TEXTS)).rejects.toMatchObject({ code: 'not_configured' });
  });
});
