import type { ChatMessage, ChatToolCall } from '../../shared/api';
import { STOPPED_MARK } from '../../shared/chat-marks';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { personaPrivacy, requirePersona } from '../personas/store';
import type { ChatProvider, LlmMessage } from '../providers/llm/types';
import { afterTurn } from './after-turn';
import { chatProviderFrom } from '../providers/llm/config';
import { loadChatSettings } from '../settings/chat-settings';
import { type ConversationRow, resolveConversation } from './conversation';
import { toLlmHistory } from './history';
import { deleteMessage, finishMessage, insertMessage, listMessages } from './messages';
import { assemblePrompt } from './prompt';
import { claimTurn } from '../conversations/running';
import { touchConversation } from '../conversations/turn-state';
import { toolsFor } from './tools/definitions';
import { runTool } from './tools/run';

/** Tool rounds per turn; the round after the last one is answered without tools. */
export const MAX_TOOL_ROUNDS = 6;
export { STOPPED_MARK };

interface Turn {
  ctx: CoreContext;
  conv: ConversationRow;
  provider: ChatProvider;
  signal: AbortSignal;
}

function emitMessage(ctx: CoreContext, conv: ConversationRow, message: ChatMessage): void {
  ctx.events.emit('chat.message', { persona: conv.persona, conversation: conv.id, message });
}

/** One model call streamed into a fresh assistant row, so tokens have a message id. */
async function streamRound(t: Turn, messages: LlmMessage[], withTools: boolean): Promise<ChatMessage> {
  const { ctx, conv } = t;
  const row = await insertMessage(ctx.db, conv.id, { role: 'assistant', content: '' });
  let streamed = '';
  try {
    const res = await t.provider.chat(messages, withTools ? toolsFor(conv.incognito) : [], {
      signal: t.signal,
      onToken: (delta) => {
        streamed += delta;
        ctx.events.emit('chat.token', { persona: conv.persona, conversation: conv.id, messageId: row.id, delta });
      },
    });
    const calls: ChatToolCall[] = withTools ? res.toolCalls : [];
    return await finishMessage(ctx.db, row.id, res.content, calls);
  } catch (e) {
    // Keep what the person already saw, marked as stopped; drop an empty row.
    if (streamed) emitMessage(ctx, conv, await finishMessage(ctx.db, row.id, streamed + STOPPED_MARK, null));
    else await deleteMessage(ctx.db, row.id);
    throw e;
  }
}

async function loop(t: Turn): Promise<ChatMessage> {
  const { ctx, conv } = t;
  let system = (await assemblePrompt(ctx, conv)).system;
  for (let round = 0; ; round++) {
    if (t.signal.aborted) throw new AppError('cancelled', 'The reply was stopped.');
    const history = toLlmHistory(await listMessages(ctx.db, conv.id, true));
    const withTools = round < MAX_TOOL_ROUNDS;
    const reply = await streamRound(t, [{ role: 'system', content: system }, ...history], withTools);
    emitMessage(ctx, conv, reply);
    if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
    let userModelChanged = false;
    for (const call of reply.toolCalls) {
      const out = await runTool(ctx, { persona: conv.persona, conversationId: conv.id, incognito: conv.incognito }, call.name, call.arguments);
      userModelChanged ||= out.userModelChanged === true;
      const result = await insertMessage(ctx.db, conv.id, {
        role: 'tool',
        content: out.content,
        toolCallId: call.id,
        memoryIds: out.memoryIds,
      });
      emitMessage(ctx, conv, result);
    }
    // The user model is read fresh: a dimension written this round shows in the next call.
    if (userModelChanged) system = (await assemblePrompt(ctx, conv)).system;
  }
}

/** chat.send: one whole turn (tool calls included); tokens and messages stream as events. */
export async function sendMessage(ctx: CoreContext, persona: string, text: string, conversation?: string): Promise<ChatMessage> {
  return runTurn(ctx, persona, conversation, async (conv) => {
    emitMessage(ctx, conv, await insertMessage(ctx.db, conv.id, { role: 'user', content: text }));
  });
}

/** The newest question not folded into the summary (Retry and Edit start from it); `none` says why there is none. */
async function lastQuestionId(ctx: CoreContext, conversation: string, none: string): Promise<string> {
  const { rows } = await ctx.db.query<{ last: string | null }>(
    `SELECT max(id)::text AS last FROM messages WHERE conversation_id = $1 AND role = 'user' AND NOT folded`,
    [conversation],
  );
  const last = rows[0]?.last;
  if (!last) throw new AppError('conflict', none);
  return last;
}

/**
 * chat.retry: answers the last user message again — Retry after a failed turn, Regenerate
 * after an answer. What came after that message (the old answer, its tool calls and results)
 * is removed first, so the model sees the conversation as it was when the question was asked;
 * memories those tool calls saved stay (deleting a memory is the person's decision).
 */
export async function retryTurn(ctx: CoreContext, persona: string, conversation?: string): Promise<ChatMessage> {
  return runTurn(ctx, persona, conversation, async (conv) => {
    const last = await lastQuestionId(ctx, conv.id, 'There is no message to answer again: send one first.');
    await ctx.db.query(`DELETE FROM messages WHERE conversation_id = $1 AND id > $2::bigint`, [conv.id, last]);
  });
}

/**
 * chat.edit: the last user message, rewritten, and answered again as a new question. What
 * followed it is removed first, as for chat.retry; earlier messages stay as they were.
 */
export async function editTurn(ctx: CoreContext, persona: string, text: string, conversation?: string): Promise<ChatMessage> {
  return runTurn(ctx, persona, conversation, async (conv) => {
    const last = await lastQuestionId(ctx, conv.id, 'There is no message to edit: send one first.');
    await ctx.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM messages WHERE conversation_id = $1 AND id > $2::bigint`, [conv.id, last]);
      await tx.query(`UPDATE messages SET content = $2 WHERE id = $1::bigint`, [last, text]);
    });
  });
}

async function runTurn(
  ctx: CoreContext,
  persona: string,
  conversation: string | undefined,
  prepare: (conv: ConversationRow) => Promise<void>,
): Promise<ChatMessage> {
  await requirePersona(ctx.db, persona);
  const settings = await loadChatSettings(ctx);
  const provider = chatProviderFrom(settings, await personaPrivacy(ctx.db, persona));
  const { signal, release } = claimTurn(ctx, persona);
  let failure: AppError | null = null;
  let convId: string | undefined;
  try {
    const conv = await resolveConversation(ctx.db, persona, conversation);
    convId = conv.id;
    ctx.events.emit('chat.state', { persona, conversation: conv.id, busy: true });
    // Using a conversation makes it the persona's current one.
    await touchConversation(ctx.db, conv.id);
    await prepare(conv);
    let reply: ChatMessage;
    try {
      reply = await loop({ ctx, conv, provider, signal });
    } catch (e) {
      if (e instanceof AppError && e.code === 'context_overflow') await afterTurn(ctx, conv, settings, false);
      throw e;
    }
    await afterTurn(ctx, conv, settings, true);
    return reply;
  } catch (e) {
    failure = e instanceof AppError ? e : new AppError('internal', (e as Error).message);
    throw e;
  } finally {
    // Released before the event, so a UI that sees busy:false may send at once.
    release();
    ctx.events.emit('chat.state', {
      persona,
      ...(convId ? { conversation: convId } : {}),
      busy: false,
      ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
    });
  }
}
