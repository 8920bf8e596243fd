import type { Job } from '../../shared/api';
import { installEmbeddings } from './fake-openai/embeddings';
import { type FakeServer, startFakeServer } from './fake-openai/server';
import { makeTestCore, type TestCore } from './core';

export interface IngestFixture {
  core: TestCore;
  server: FakeServer;
  events: { name: string; payload: unknown }[];
  /** Resolves with the job once it is completed or discarded. */
  settled(jobId: string): Promise<Job>;
  dispose(): Promise<void>;
}

/** A real core whose embeddings come from the fake server (fast, deterministic). */
export async function ingestFixture(): Promise<IngestFixture> {
  const server = await startFakeServer();
  installEmbeddings(server, { dimensions: 16 });
  const core = await makeTestCore({ jobs: { backoffBaseMs: 20, backoffMaxMs: 100, pollMs: 100 } });
  await core.call('settings.set', {
    embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 },
  });
  const events: IngestFixture['events'] = [];
  const waiting = new Map<string, (j: Job) => void>();
  core.events.subscribe((name, payload) => {
    events.push({ name, payload });
    if (name === 'jobs.changed') {
      const { job } = payload as { job: Job };
      if (job.state === 'completed' || job.state === 'discarded') waiting.get(job.id)?.(job);
    }
  });
  return {
    core,
    server,
    events,
    async settled(jobId) {
      const done = new Promise<Job>((resolve) => waiting.set(jobId, resolve));
      // It may have finished before we started listening.
      const { jobs } = await core.call('jobs.list', { queue: 'ingest', limit: 500 });
      const now = jobs.find((j) => j.id === jobId);
      if (now && (now.state === 'completed' || now.state === 'discarded')) return now;
      return done;
    },
    async dispose() {
      await core.dispose();
      await server.close();
    },
  };
}

export interface ChunkRow {
  chunk_index: number;
  content: string;
  page_from: number | null;
  page_to: number | null;
}

export async function chunksOf(core: TestCore, persona: string, source: string): Promise<ChunkRow[]> {
  const { rows } = await core.ctx.db.query<ChunkRow>(
    `SELECT chunk_index, content, page_from, page_to FROM knowledge_chunks
     WHERE persona = $1 AND source = $2 ORDER BY chunk_index`,
    [persona, source],
  );
  return rows;
}
