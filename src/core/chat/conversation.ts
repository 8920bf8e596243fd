import { AppError } from '../../shared/errors';
import { CURRENT_CONVERSATION, currentConversationId } from '../conversations/current';
import type { Queryable } from '../db/client';

export interface ConversationRow {
  id: string;
  persona: string;
  summary: string;
  memory_snapshot: string | null;
  user_msgs_since_nudge: number;
  /** Reads the persona's memory, writes none of it, deleted when closed (docs/privacy.md). */
  incognito: boolean;
}

const COLUMNS = 'id, persona, summary, memory_snapshot, user_msgs_since_nudge, incognito';

/** The persona's current conversation (the one used most recently), created on first use. */
export async function ensureConversation(db: Queryable, persona: string): Promise<ConversationRow> {
  return (await getConversationById(db, await currentConversationId(db, persona)))!;
}

/** The persona's current conversation, or null when it has none yet. */
export async function findConversation(db: Queryable, persona: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations WHERE id = ${CURRENT_CONVERSATION}`, [persona]);
  return rows[0] ?? null;
}

export async function getConversationById(db: Queryable, id: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The named conversation of this persona; `not_found` if it is gone or belongs to another persona. */
export async function requireConversation(db: Queryable, persona: string, id: string): Promise<ConversationRow> {
  const { rows } = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations WHERE id = $1 AND persona = $2`, [id, persona]);
  if (!rows[0]) throw new AppError('not_found', 'That conversation no longer exists.');
  return rows[0];
}

/** The conversation a chat call means: the one named, else the persona's current one. */
export async function resolveConversation(db: Queryable, persona: string, id: string | undefined): Promise<ConversationRow> {
  return id ? requireConversation(db, persona, id) : ensureConversation(db, persona);
}
