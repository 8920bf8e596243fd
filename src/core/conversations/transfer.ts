// The conversations table's side of a persona file (docs/export.md).
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/client';
import { ts } from '../db/bulk-rows';

/** A conversation as a persona file holds it. */
export interface ConversationRow {
  id: string;
  title: string;
  summary: string;
  memorySnapshot: string | null;
  userMsgsSinceNudge: number;
  createdAt: string;
  updatedAt: string;
}

export const countConversations = async (q: Queryable, persona: string) =>
  (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM conversations WHERE persona = $1 AND NOT incognito', [persona])).rows[0]?.n ?? 0;

/** The persona's conversations, oldest first. An incognito chat leaves nothing behind, in an export neither (docs/privacy.md). */
export async function exportConversations(q: Queryable, persona: string): Promise<ConversationRow[]> {
  const { rows } = await q.query<Record<string, string | number | null>>(
    `SELECT id, title, summary, memory_snapshot, user_msgs_since_nudge, ${ts('created_at')} AS created_at, ${ts('updated_at')} AS updated_at
     FROM conversations WHERE persona = $1 AND NOT incognito ORDER BY created_at, id`,
    [persona],
  );
  return rows.map((c) => ({
    id: String(c.id),
    title: String(c.title),
    summary: String(c.summary),
    memorySnapshot: c.memory_snapshot === null ? null : String(c.memory_snapshot),
    userMsgsSinceNudge: Number(c.user_msgs_since_nudge),
    createdAt: String(c.created_at),
    updatedAt: String(c.updated_at),
  }));
}

/**
 * Writes one conversation for the persona. Its id is kept unless this
 * database already uses it (importing a copy next to its original): then it
 * gets a new one. Returns the id it has here.
 */
export async function insertImportedConversation(q: Queryable, persona: string, r: ConversationRow): Promise<string> {
  const { rows } = await q.query('SELECT 1 FROM conversations WHERE id = $1', [r.id]);
  const id = rows.length ? randomUUID() : r.id;
  await q.query(
    `INSERT INTO conversations (id, persona, title, summary, memory_snapshot, user_msgs_since_nudge, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz)`,
    [id, persona, r.title, r.summary, r.memorySnapshot, r.userMsgsSinceNudge, r.createdAt, r.updatedAt],
  );
  return id;
}
