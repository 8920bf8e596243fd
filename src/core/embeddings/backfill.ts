import type { CoreContext } from '../context';
import { enqueueEmbeddings, type EmbeddingTarget } from './enqueue';
import { missingRows } from './store';

/**
 * Enqueues embedding for every row lacking a current-model vector that no
 * job covers yet (docs/memory-model.md, the vector contract). Returns the row count.
 */
export async function backfillEmbeddings(ctx: CoreContext, persona: string | null): Promise<number> {
  if (!ctx.db.features.vector) return 0; // text-only: a server without pgvector (docs/server-mode.md)
  const model = ctx.embedder.model();
  const n = await ctx.db.transaction(async (tx) => {
    let count = 0;
    for (const target of ['memory', 'knowledge'] as EmbeddingTarget[]) {
      const rows = await missingRows(tx, target, model, persona);
      const byPersona = new Map<string, string[]>();
      for (const r of rows) {
        const ids = byPersona.get(r.persona) ?? [];
        ids.push(r.id);
        byPersona.set(r.persona, ids);
      }
      for (const [p, ids] of byPersona) await enqueueEmbeddings(tx, p, target, ids);
      count += rows.length;
    }
    return count;
  });
  if (n > 0) ctx.wakeJobs();
  return n;
}
