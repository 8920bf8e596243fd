import { z } from 'zod';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId, text, uuid } from '../schemas';
import { clearConversation } from './clear';
import { findConversation, requireConversation, resolveConversation } from './conversation';
import { listMessages } from './messages';
import { assemblePrompt } from './prompt';
import { cancelTurn } from '../conversations/running';
import { editTurn, retryTurn, sendMessage } from './turn';

export const MAX_USER_MESSAGE_CHARS = 100_000;

const personaArgs = z.object({ persona: personaId }).strict();
const convArgs = z.object({ persona: personaId, conversation: uuid.optional() }).strict();

export const chatHandlers = {
  'chat.send': handler(convArgs.extend({ text: text(MAX_USER_MESSAGE_CHARS) }).strict(), (args, ctx) =>
    sendMessage(ctx, args.persona, args.text, args.conversation),
  ),

  'chat.edit': handler(convArgs.extend({ text: text(MAX_USER_MESSAGE_CHARS) }).strict(), (args, ctx) =>
    editTurn(ctx, args.persona, args.text, args.conversation),
  ),

  'chat.retry': handler(convArgs, (args, ctx) => retryTurn(ctx, args.persona, args.conversation)),

  'chat.cancel': handler(personaArgs, async (args, ctx) => ({ cancelled: cancelTurn(ctx, args.persona) })),

  'chat.history': handler(convArgs, async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    const conv = args.conversation ? await requireConversation(ctx.db, args.persona, args.conversation) : await findConversation(ctx.db, args.persona);
    if (!conv) return { messages: [], summary: '', conversation: null };
    return { messages: await listMessages(ctx.db, conv.id, false), summary: conv.summary, conversation: conv.id };
  }),

  'chat.clear': handler(convArgs, async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return { cleared: await clearConversation(ctx, args.persona, args.conversation) };
  }),

  'chat.prompt': handler(convArgs, async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return assemblePrompt(ctx, await resolveConversation(ctx.db, args.persona, args.conversation));
  }),
};
