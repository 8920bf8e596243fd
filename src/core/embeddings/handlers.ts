import { jobArgs } from '../../shared/contract/jobs';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { backfillEmbeddings } from './backfill';

export const embeddingHandlers = {
  'embeddings.backfill': handler(jobArgs['embeddings.backfill'], async (args, ctx) => {
    if (args.persona) await requirePersona(ctx.db, args.persona);
    return { enqueued: await backfillEmbeddings(ctx, args.persona ?? null) };
  }),
};
