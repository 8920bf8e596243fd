import { z } from 'zod';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId } from '../schemas';
import { latestTrashId } from '../trash/store';
import { deleteSource, listSources } from './store';

// knowledge.ingest (parsing, chunking) is registered by the ingest module.
export const knowledgeStoreHandlers = {
  'knowledge.listSources': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listSources(ctx.db, persona, ctx.embedder.model());
  }),

  'knowledge.deleteSource': handler(
    z.object({ persona: personaId, source: z.string().min(1).max(1000) }).strict(),
    async ({ persona, source }, ctx, call) => {
      await requirePersona(ctx.db, persona);
      const deleted = await deleteSource(ctx, persona, source, { actor: call.actor });
      return { deleted, trashId: await latestTrashId(ctx.db, persona, 'knowledge_source', source) };
    },
  ),
};
