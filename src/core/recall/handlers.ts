import { recallArgs } from '../../shared/contract/recall';
import { handler } from '../method';
import { recall, searchMemories } from './recall';

export const recallHandlers = {
  recall: handler(
    recallArgs['recall'],
    // recall embeds the query itself (text-only when the embedder cannot answer in time).
    (args, ctx) => recall(ctx, { ...args, rewrite: true }),
    { readsTextOnly: true },
  ),
  'memories.search': handler(
    recallArgs['memories.search'],
    (args, ctx) => searchMemories(ctx, args),
    { readsTextOnly: true },
  ),
};
