import { z } from 'zod';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId } from '../schemas';
import { backfillEmbeddings } from './backfill';

export const embeddingHandlers = {
  'embeddings.backfill': handler(z.object({ persona: personaId.optional() }).strict(), async (args, ctx) => {
    if (args.persona) await requirePersona(ctx.db, args.persona);
    return { enqueued: await backfillEmbeddings(ctx, args.persona ?? null) };
  }),
};
