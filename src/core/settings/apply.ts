import type { CoreContext } from '../context';
import { backfillEmbeddings } from '../embeddings/backfill';
import { embeddingConfig } from './store';

/**
 * Brings the embedding provider in line with the stored settings. When the
 * model changes, the old vectors stop counting as current (their tag differs)
 * and a backfill queues every row for the new model.
 */
export async function applyEmbeddingSettings(ctx: CoreContext): Promise<{ modelChanged: boolean; enqueued: number }> {
  const { config, apiKey } = await embeddingConfig(ctx);
  const { modelChanged } = await ctx.embedder.configure(config, apiKey);
  const enqueued = modelChanged ? await backfillEmbeddings(ctx, null) : 0;
  return { modelChanged, enqueued };
}
