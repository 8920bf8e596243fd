import type { ChatMessage, ChatToolCall } from '../../shared/api';
import type { Queryable } from '../db/client';
import { toIso } from '../time';

interface MessageRow {
  id: string;
  role: ChatMessage['role'];
  content: string;
  tool_calls: ChatToolCall[] | null;
  tool_call_id: string | null;
  memory_ids: string[] | null;
  folded: boolean;
  created_at: Date;
}

const COLUMNS = 'id::text AS id, role, content, tool_calls, tool_call_id, memory_ids, folded, created_at';

function toMessage(r: MessageRow): ChatMessage {
  return {
    id: r.id,
    role: r.role,
    content: r.content,
    toolCalls: r.tool_calls,
    toolCallId: r.tool_call_id,
    memoryIds: r.memory_ids,
    folded: r.folded,
    createdAt: toIso(r.created_at),
  };
}

export interface NewMessage {
  role: ChatMessage['role'];
  content: string;
  toolCalls?: ChatToolCall[] | null;
  toolCallId?: string | null;
  memoryIds?: string[] | null;
}

export async function insertMessage(db: Queryable, conversationId: string, m: NewMessage): Promise<ChatMessage> {
  const { rows } = await db.query<MessageRow>(
    `INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, memory_ids)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [
      conversationId,
      m.role,
      m.content,
      m.toolCalls && m.toolCalls.length > 0 ? JSON.stringify(m.toolCalls) : null,
      m.toolCallId ?? null,
      m.memoryIds && m.memoryIds.length > 0 ? JSON.stringify(m.memoryIds) : null,
    ],
  );
  return toMessage(rows[0]!);
}

/** Completes a message that was streamed into (content, and its tool calls if any). */
export async function finishMessage(db: Queryable, id: string, content: string, toolCalls: ChatToolCall[] | null): Promise<ChatMessage> {
  const { rows } = await db.query<MessageRow>(
    `UPDATE messages SET content = $2, tool_calls = $3 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, content, toolCalls && toolCalls.length > 0 ? JSON.stringify(toolCalls) : null],
  );
  return toMessage(rows[0]!);
}

export async function deleteMessage(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM messages WHERE id = $1`, [id]);
}

/** In order; `unfoldedOnly` for what the model still sees verbatim. */
export async function listMessages(db: Queryable, conversationId: string, unfoldedOnly: boolean): Promise<ChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE conversation_id = $1 ${unfoldedOnly ? 'AND NOT folded' : ''} ORDER BY messages.id`,
    [conversationId],
  );
  return rows.map(toMessage);
}

export async function markFolded(db: Queryable, conversationId: string, ids: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH f AS (UPDATE messages SET folded = true
       WHERE conversation_id = $1 AND id = ANY($2::bigint[]) AND NOT folded RETURNING 1)
     SELECT count(*)::int AS n FROM f`,
    [conversationId, ids],
  );
  return rows[0]?.n ?? 0;
}

/** One message by id (another device's new message, docs/server-mode.md "Live updates"); null when gone. */
export async function getMessage(db: Queryable, id: string): Promise<ChatMessage | null> {
  const { rows } = await db.query<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = $1::bigint`, [id]);
  return rows[0] ? toMessage(rows[0]) : null;
}
