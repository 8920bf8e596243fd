// Embeddings jobs for a persona written by an import (docs/export.md): one
// job per JOB_ROWS rows lacking a current-model vector. A staged vector only
// joins its index; the rest are embedded (work.ts).
import type { Queryable } from '../db/client';
import type { Timed } from '../db/bulk-rows';
import type { EmbeddingTarget } from './enqueue';

/** An embeddings job covers this many rows (as enqueueEmbeddings does). */
export const JOB_ROWS = 64;

const KEYS = {
  memory: { table: 'memories', key: 'seq', text: 'seq::text', cmp: 'seq > $3::bigint', start: ['0'] },
  knowledge: {
    table: 'knowledge_chunks', key: 'source, chunk_index', text: 'json_build_array(source, chunk_index)::text',
    cmp: '(source, chunk_index) > ($3::text, $4::int)', start: ['', -1],
  },
} as const;

/** Where the first page of a target starts. */
export const firstKey = (target: EmbeddingTarget): readonly unknown[] => KEYS[target].start;

/** The key after a page's last row (as enqueueImportedPage returns it). */
export const nextKey = (target: EmbeddingTarget, last: string): readonly unknown[] => (target === 'memory' ? [last] : (JSON.parse(last) as unknown[]));

/**
 * Queues the jobs for one page of `size` rows (a multiple of JOB_ROWS) of
 * the persona after `after`, by key, in the order they were written. Returns
 * the page's last key and how many rows it held.
 */
export async function enqueueImportedPage(
  q: Queryable,
  persona: string,
  model: string,
  target: EmbeddingTarget,
  after: readonly unknown[],
  size: number,
): Promise<Timed<{ last: string | null; n: number }>> {
  const p = KEYS[target];
  const at = 3 + after.length;
  const { rows, ms } = await q.query<{ last: string | null; n: number }>(
    `WITH page AS (
       SELECT id, ${p.text} AS k, row_number() OVER (ORDER BY ${p.key}) AS n
       FROM (SELECT id, ${p.key} FROM ${p.table}
             WHERE persona = $1 AND ${p.cmp} AND NOT (embedding IS NOT NULL AND embedding_model IS NOT DISTINCT FROM $2)
             ORDER BY ${p.key} LIMIT $${at}) t
     ), jobs AS (
       INSERT INTO jobs (queue, persona, args)
       SELECT 'embeddings', $1, jsonb_build_object('target', $${at + 1}::text, 'ids', jsonb_agg(id::text ORDER BY n))
       FROM page GROUP BY (n - 1) / ${JOB_ROWS}
     )
     SELECT (SELECT k FROM page ORDER BY n DESC LIMIT 1) AS last, (SELECT count(*)::int FROM page) AS n`,
    [persona, model, ...after, size, target],
  );
  return { ...(rows[0] ?? { last: null, n: 0 }), ms };
}
