import { AppError } from '../../shared/errors';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { chatArgs } from '../../shared/contract/chat';
import { CONVERSATION_TITLE_MAX } from '../../shared/contract/limits';
import { closeConversation } from './incognito';
import { isBusy } from './running';
import { searchConversations } from './search';
import { createConversation, deleteConversation, listConversations, renameConversation } from './store';

export const MAX_TITLE_CHARS = CONVERSATION_TITLE_MAX;

export const conversationHandlers = {
  'conversations.list': handler(chatArgs['conversations.list'], async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return listConversations(ctx.db, args.persona);
  }),

  'conversations.search': handler(
    chatArgs['conversations.search'],
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return searchConversations(ctx.db, args.persona, args.query, args.limit ?? 30);
    },
  ),

  'conversations.create': handler(chatArgs['conversations.create'], async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return createConversation(ctx.db, args.persona, args.title ?? '', args.incognito ?? false);
  }),

  'conversations.close': handler(chatArgs['conversations.close'], async (args, ctx) => {
    // Its reply must not be written into a conversation that is being deleted.
    if (isBusy(ctx, args.persona)) throw new AppError('busy', 'Stop the current reply before closing this conversation.');
    return closeConversation(ctx.db, args.persona, args.id);
  }),

  'conversations.rename': handler(chatArgs['conversations.rename'], (args, ctx) =>
    renameConversation(ctx.db, args.persona, args.id, args.title),
  ),

  'conversations.delete': handler(chatArgs['conversations.delete'], async (args, ctx) => {
    // One reply runs per persona at a time; deleting under it would lose the reply mid-write.
    if (isBusy(ctx, args.persona)) throw new AppError('busy', 'Stop the current reply before deleting a conversation.');
    return deleteConversation(ctx.db, args.persona, args.id);
  }),
};
