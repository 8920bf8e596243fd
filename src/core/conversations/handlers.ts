import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId, uuid } from '../schemas';
import { closeConversation } from './incognito';
import { isBusy } from './running';
import { searchConversations } from './search';
import { createConversation, deleteConversation, listConversations, renameConversation } from './store';

export const MAX_TITLE_CHARS = 200;
const title = z.string().trim().max(MAX_TITLE_CHARS, `at most ${MAX_TITLE_CHARS} characters`);

export const conversationHandlers = {
  'conversations.list': handler(z.object({ persona: personaId }).strict(), async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return listConversations(ctx.db, args.persona);
  }),

  'conversations.search': handler(
    z.object({ persona: personaId, query: z.string().trim().min(1, 'type a word to look for').max(500), limit: z.number().int().min(1).max(100).optional() }).strict(),
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return searchConversations(ctx.db, args.persona, args.query, args.limit ?? 30);
    },
  ),

  'conversations.create': handler(z.object({ persona: personaId, title: title.optional(), incognito: z.boolean().optional() }).strict(), async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return createConversation(ctx.db, args.persona, args.title ?? '', args.incognito ?? false);
  }),

  'conversations.close': handler(z.object({ persona: personaId, id: uuid }).strict(), async (args, ctx) => {
    // Its reply must not be written into a conversation that is being deleted.
    if (isBusy(ctx, args.persona)) throw new AppError('busy', 'Stop the current reply before closing this conversation.');
    return closeConversation(ctx.db, args.persona, args.id);
  }),

  'conversations.rename': handler(z.object({ persona: personaId, id: uuid, title }).strict(), (args, ctx) =>
    renameConversation(ctx.db, args.persona, args.id, args.title),
  ),

  'conversations.delete': handler(z.object({ persona: personaId, id: uuid }).strict(), async (args, ctx) => {
    // One reply runs per persona at a time; deleting under it would lose the reply mid-write.
    if (isBusy(ctx, args.persona)) throw new AppError('busy', 'Stop the current reply before deleting a conversation.');
    return deleteConversation(ctx.db, args.persona, args.id);
  }),
};
