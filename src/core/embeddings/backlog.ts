import type { Queryable } from '../db/client';

// The Jobs view's "waiting for a vector" figure, read from the embedding columns
// of memories and knowledge_chunks, which this domain writes (store.ts).

/** How many rows (memories + chunks) lack a current-model vector. */
export async function countBacklog(q: Queryable, model: string, persona: string | null): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM memories t WHERE NOT (t.embedding IS NOT NULL AND t.embedding_model = $1)
               AND ($2::text IS NULL OR t.persona = $2))
          + (SELECT count(*) FROM knowledge_chunks t WHERE NOT (t.embedding IS NOT NULL AND t.embedding_model = $1)
               AND ($2::text IS NULL OR t.persona = $2)) AS n`,
    [model, persona],
  );
  return Number(rows[0]?.n ?? 0);
}
