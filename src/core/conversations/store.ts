// Several conversations per persona: list, create, rename, delete (docs/conversations.md).
import type { ConversationInfo } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { Queryable } from '../db/client';
import { toIso } from '../time';

interface Row {
  id: string;
  title: string;
  created_at: Date;
  updated_at: Date;
  incognito: boolean;
  messages: number;
  first_message: string | null;
}

function toInfo(r: Row): ConversationInfo {
  return {
    id: r.id,
    title: r.title,
    firstMessage: r.first_message,
    messages: r.messages,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
    incognito: r.incognito,
  };
}

const SELECT = `SELECT c.id, c.title, c.created_at, c.updated_at, c.incognito,
    (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant')) AS messages,
    (SELECT left(m.content, 200) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.id LIMIT 1) AS first_message
  FROM conversations c`;

/** Most recently used first: the first one is the persona's current conversation. */
export async function listConversations(db: Queryable, persona: string): Promise<ConversationInfo[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE c.persona = $1 ORDER BY c.updated_at DESC, c.created_at DESC`, [persona]);
  return rows.map(toInfo);
}

async function one(db: Queryable, id: string): Promise<ConversationInfo> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE c.id = $1`, [id]);
  if (!rows[0]) throw new AppError('not_found', 'That conversation no longer exists.');
  return toInfo(rows[0]);
}

/**
 * A new, empty conversation; it becomes the current one (newest updated_at) unless it is
 * incognito, which is never the current one (docs/privacy.md).
 */
export async function createConversation(db: Queryable, persona: string, title: string, incognito = false): Promise<ConversationInfo> {
  const { rows } = await db.query<{ id: string }>(
    // clock_timestamp, not now(): two created in one transaction still order.
    `INSERT INTO conversations (persona, title, created_at, updated_at, incognito) VALUES ($1, $2, clock_timestamp(), clock_timestamp(), $3) RETURNING id`,
    [persona, title, incognito],
  );
  return one(db, rows[0]!.id);
}

export async function renameConversation(db: Queryable, persona: string, id: string, title: string): Promise<ConversationInfo> {
  // Renaming is not using it: updated_at (the "current" order) stays.
  const { affectedRows } = await db.query(`UPDATE conversations SET title = $3 WHERE id = $2 AND persona = $1`, [persona, id, title]);
  if (!affectedRows) throw new AppError('not_found', 'That conversation no longer exists.');
  return one(db, id);
}

/** Deletes the conversation and its messages; memories saved from it stay (their link is cleared). */
export async function deleteConversation(db: Queryable, persona: string, id: string): Promise<{ deleted: boolean }> {
  const { affectedRows } = await db.query(`DELETE FROM conversations WHERE id = $2 AND persona = $1`, [persona, id]);
  return { deleted: affectedRows > 0 };
}
