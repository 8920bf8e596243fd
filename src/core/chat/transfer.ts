// The messages table's side of a persona file (docs/export.md): read by id
// up to the mark an export started at, written by an import in file order
// (message ids are this database's sequence).
import type { Queryable } from '../db/client';
import { type PageReader, type PreparedPage, ts } from '../db/bulk-rows';

/** A message as a persona file holds it. */
export interface MessageRow {
  conversationId: string;
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls: unknown;
  toolCallId: string | null;
  memoryIds: string[] | null;
  folded: boolean;
  createdAt: string;
}

/** The export's mark for messages (selected in one statement with the other tables' marks). */
export const MESSAGE_MARK_SQL = '(SELECT coalesce(max(id), 0) FROM messages)::text';

export async function countMessages(q: Queryable, persona: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM messages x JOIN conversations c ON c.id = x.conversation_id WHERE c.persona = $1 AND NOT c.incognito',
    [persona],
  );
  return rows[0]?.n ?? 0;
}

/** The persona's messages in the order they were written, up to the mark. */
export function messagePages(q: Queryable, persona: string, mark: string): PageReader<MessageRow & { id: string }> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{
      id: string; conversation_id: string; role: MessageRow['role']; content: string; tool_calls: unknown;
      tool_call_id: string | null; memory_ids: string[] | null; folded: boolean; created_at: string;
    }>(
      `SELECT x.id::text AS id, x.conversation_id, x.role, x.content, x.tool_calls, x.tool_call_id, x.memory_ids, x.folded,
              ${ts('x.created_at')} AS created_at
       FROM messages x JOIN conversations c ON c.id = x.conversation_id
       WHERE c.persona = $1 AND x.id > $2::bigint AND x.id <= $3::bigint ORDER BY x.id LIMIT ${limit}`,
      [persona, after ? after.id : '0', mark],
    );
    const page = rows.map((m) => ({
      id: m.id, conversationId: m.conversation_id, role: m.role, content: m.content, toolCalls: m.tool_calls ?? null,
      toolCallId: m.tool_call_id, memoryIds: m.memory_ids, folded: m.folded, createdAt: m.created_at,
    }));
    return { rows: page, ms };
  };
}

/** A page of messages (PreparedPage; their conversations and linked memories already the ones they have here), in page order. */
export function insertMessagePage(page: MessageRow[]): PreparedPage<object> {
  const rows = page.map((m, n) => ({
    n, conversation_id: m.conversationId, role: m.role, content: m.content,
    // jsonb columns: the value itself (JSON null is SQL NULL).
    tool_calls: m.toolCalls, tool_call_id: m.toolCallId, memory_ids: m.memoryIds, folded: m.folded, created_at: m.createdAt,
  }));
  const json = JSON.stringify(rows);
  return (q) => q.query(
    `INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, memory_ids, folded, created_at)
     SELECT r.conversation_id, r.role, r.content, r.tool_calls, r.tool_call_id, r.memory_ids, r.folded, r.created_at
     FROM json_to_recordset($1::json) AS r(n int, conversation_id uuid, role text, content text, tool_calls jsonb, tool_call_id text,
                                           memory_ids jsonb, folded boolean, created_at timestamptz)
     ORDER BY r.n`,
    [json],
  );
}
