import { z } from 'zod';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { personaId, text } from '../schemas';
import { clearConversation } from './clear';
import { ensureConversation, findConversation } from './conversation';
import { listMessages } from './messages';
import { assemblePrompt } from './prompt';
import { cancelTurn } from './running';
import { retryTurn, sendMessage } from './turn';

export const MAX_USER_MESSAGE_CHARS = 100_000;

const personaArgs = z.object({ persona: personaId }).strict();

export const chatHandlers = {
  'chat.send': handler(z.object({ persona: personaId, text: text(MAX_USER_MESSAGE_CHARS) }).strict(), (args, ctx) =>
    sendMessage(ctx, args.persona, args.text),
  ),

  'chat.retry': handler(personaArgs, (args, ctx) => retryTurn(ctx, args.persona)),

  'chat.cancel': handler(personaArgs, async (args, ctx) => ({ cancelled: cancelTurn(ctx, args.persona) })),

  'chat.history': handler(personaArgs, async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    const conv = await findConversation(ctx.db, args.persona);
    if (!conv) return { messages: [], summary: '' };
    return { messages: await listMessages(ctx.db, conv.id, false), summary: conv.summary };
  }),

  'chat.clear': handler(personaArgs, async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return { cleared: await clearConversation(ctx, args.persona) };
  }),

  'chat.prompt': handler(personaArgs, async (args, ctx) => {
    await requirePersona(ctx.db, args.persona);
    return assemblePrompt(ctx, await ensureConversation(ctx.db, args.persona));
  }),
};
