import type { CoreOptions } from '../index';
import { decodeVector } from '../db/vector';
import { installEmbeddings, type FakeEmbeddings } from './fake-openai/embeddings';
import { type FakeServer, startFakeServer } from './fake-openai/server';
import { makeTestCore, type TestCore } from './core';

export interface EmbedFixture {
  core: TestCore;
  server: FakeServer;
  fake: FakeEmbeddings;
  dispose(): Promise<void>;
}

/** A test core whose embeddings come from the fake server, as an OpenAI-compatible provider. */
export async function makeEmbedFixture(options: Partial<CoreOptions> = {}, dimensions = 16): Promise<EmbedFixture> {
  const server = await startFakeServer();
  const fake = installEmbeddings(server, { dimensions });
  const core = await makeTestCore(options);
  await core.call('settings.set', {
    embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions },
  });
  return {
    core,
    server,
    fake,
    async dispose() {
      await core.dispose();
      await server.close();
    },
  };
}

/** The stored vector of a row (native size, padding cut off), or null. */
export async function storedVector(core: TestCore, table: 'memories' | 'knowledge_chunks', id: string, dims: number) {
  const { rows } = await core.ctx.db.query<{ v: Uint8Array | null; model: string | null }>(
    `SELECT vector_send(embedding) AS v, embedding_model AS model FROM ${table} WHERE id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r?.v) return null;
  const full = decodeVector(r.v);
  return { vector: full.slice(0, dims), padding: full.slice(dims), model: r.model };
}
