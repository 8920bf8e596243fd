import { knowledgeArgs } from '../../shared/contract/knowledge';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { latestTrashId } from '../trash/store';
import { deleteSource, listSources } from './store';

// knowledge.ingest (parsing, chunking) is registered by the ingest module.
export const knowledgeStoreHandlers = {
  'knowledge.listSources': handler(knowledgeArgs['knowledge.listSources'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return listSources(ctx.db, persona, ctx.embedder.model());
  }),

  'knowledge.deleteSource': handler(
    knowledgeArgs['knowledge.deleteSource'],
    async ({ persona, source }, ctx, call) => {
      await requirePersona(ctx.db, persona);
      const deleted = await deleteSource(ctx, persona, source, { actor: call.actor });
      return { deleted, trashId: await latestTrashId(ctx.db, persona, 'knowledge_source', source) };
    },
  ),
};
