import type { CoreContext } from '../context';
import { backfillEmbeddings } from '../embeddings/backfill';
import { embeddingConfig } from './store';

/**
 * Brings the embedding provider in line with the stored settings. When the
 * model changes, the old vectors stop counting as current (their tag differs)
 * and a backfill queues every row for the new model. A new key or URL for the
 * same model also backfills: it requeues the rows whose embedding failed.
 */
export async function applyEmbeddingSettings(
  ctx: CoreContext,
  options: { backfill: boolean } = { backfill: true },
): Promise<{ modelChanged: boolean; enqueued: number }> {
  const { config, apiKey } = await embeddingConfig(ctx);
  const { changed, modelChanged } = await ctx.embedder.configure(config, apiKey);
  const enqueued = changed && options.backfill ? await backfillEmbeddings(ctx, null) : 0;
  return { modelChanged, enqueued };
}
