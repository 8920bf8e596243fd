import type { Queryable } from '../db/client';
import { enqueueJob } from '../jobs/enqueue';

/** Which table a vector goes to: memories or knowledge_chunks. */
export const EMBEDDING_TARGETS = ['memory', 'knowledge'] as const;
export type EmbeddingTarget = (typeof EMBEDDING_TARGETS)[number];

/**
 * Asks for vectors for these rows. Call it inside the transaction that wrote
 * them. Knowledge chunks of one source go in batches (one job per batch).
 */
export async function enqueueEmbeddings(
  q: Queryable,
  persona: string,
  target: EmbeddingTarget,
  ids: string[],
  batchSize = 64,
): Promise<string[]> {
  // A server without pgvector stores no vectors (docs/server-mode.md): nothing to ask for.
  if (q.features?.vector === false) return [];
  const jobs: string[] = [];
  for (let i = 0; i < ids.length; i += batchSize) {
    jobs.push(await enqueueJob(q, { queue: 'embeddings', persona, args: { target, ids: ids.slice(i, i + batchSize) } }));
  }
  return jobs;
}
