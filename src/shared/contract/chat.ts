import { z } from 'zod';
import { personaId, text, uuid } from './fields';
import { CONVERSATION_QUERY_MAX, CONVERSATION_TITLE_MAX, USER_MESSAGE_MAX } from './limits';

// `conversation`: which of the persona's conversations; omitted, the current one (most recently used).
const convArgs = z.object({ persona: personaId, conversation: uuid.optional() }).strict();
const message = text(USER_MESSAGE_MAX);
const title = z.string().trim().max(CONVERSATION_TITLE_MAX, `at most ${CONVERSATION_TITLE_MAX} characters`);

export const chatArgs = {
  'chat.send': convArgs.extend({ text: message }).strict(),
  /** Rewrites the last user message and answers it again: what followed it is replaced. */
  'chat.edit': convArgs.extend({ text: message }).strict(),
  /** Answers the last user message again (Retry / Regenerate): what followed it is replaced. */
  'chat.retry': convArgs,
  'chat.cancel': z.object({ persona: personaId }).strict(),
  'chat.history': convArgs,
  'chat.clear': convArgs,
  'chat.prompt': convArgs,

  'conversations.list': z.object({ persona: personaId }).strict(),
  'conversations.search': z
    .object({
      persona: personaId,
      query: z.string().trim().min(1, 'type a word to look for').max(CONVERSATION_QUERY_MAX),
      limit: z.number().int().min(1).max(100).optional(),
    })
    .strict(),
  'conversations.create': z.object({ persona: personaId, title: title.optional(), incognito: z.boolean().optional() }).strict(),
  /** Closing an incognito conversation deletes it (docs/privacy.md); any other conversation stays as it is. */
  'conversations.close': z.object({ persona: personaId, id: uuid }).strict(),
  'conversations.rename': z.object({ persona: personaId, id: uuid, title }).strict(),
  'conversations.delete': z.object({ persona: personaId, id: uuid }).strict(),
};
