import { chatArgs } from '../../shared/contract/chat';
import { USER_MESSAGE_MAX } from '../../shared/contract/limits';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { clearConversation } from './clear';
import { findConversation, requireConversation, resolveConversation } from './conversation';
import { listMessages } from './messages';
import { assemblePrompt } from './prompt';
import { cancelTurn } from '../conversations/running';
import { editTurn, retryTurn, sendMessage } from './turn';

export const MAX_USER_MESSAGE_CHARS = USER_MESSAGE_MAX;

export const chatHandlers = {
  'chat.send': handler(chatArgs['chat.send'], (args, ctx) =>
    sendMessage(ctx, args.persona, args.text, args.conversation),
  ),

  'chat.edit': handler(chatArgs['chat.edit'], (args, ctx) =>
    editTurn(ctx, args.persona, args.text, args.conversation),
  ),

  'chat.retry': handler(chatArgs['chat.retry'], (args, ctx) => retryTurn(ctx, args.persona, args.conversation)),

  'chat.cancel': handler(chatArgs['chat.cancel'], async (args, ctx) => ({ cancelled: cancelTurn(ctx, args.persona) })),

  'chat.history': handler(chatArgs['chat.history'], async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    const conv = args.conversation ? await requireConversation(ctx.db, args.persona, args.conversation) : await findConversation(ctx.db, args.persona);
    if (!conv) return { messages: [], summary: '', conversation: null };
    return { messages: await listMessages(ctx.db, conv.id, false), summary: conv.summary, conversation: conv.id };
  }),

  'chat.clear': handler(chatArgs['chat.clear'], async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return { cleared: await clearConversation(ctx, args.persona, args.conversation) };
  }),

  'chat.prompt': handler(chatArgs['chat.prompt'], async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return assemblePrompt(ctx, await resolveConversation(ctx.db, args.persona, args.conversation));
  }),
};
