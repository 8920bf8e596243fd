import type { Queryable } from '../db/client';

export interface ConversationRow {
  id: string;
  persona: string;
  summary: string;
  memory_snapshot: string | null;
  user_msgs_since_nudge: number;
}

const COLUMNS = 'id, persona, summary, memory_snapshot, user_msgs_since_nudge';

/** The persona's one canonical conversation, created on first use. */
export async function ensureConversation(db: Queryable, persona: string): Promise<ConversationRow> {
  // ON CONFLICT DO UPDATE (a no-op) so RETURNING yields the existing row too.
  const { rows } = await db.query<ConversationRow>(
    `INSERT INTO conversations (persona) VALUES ($1)
     ON CONFLICT (persona) DO UPDATE SET persona = EXCLUDED.persona
     RETURNING ${COLUMNS}`,
    [persona],
  );
  return rows[0]!;
}

export async function findConversation(db: Queryable, persona: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations WHERE persona = $1`, [persona]);
  return rows[0] ?? null;
}

export async function getConversationById(db: Queryable, id: string): Promise<ConversationRow | null> {
  const { rows } = await db.query<ConversationRow>(`SELECT ${COLUMNS} FROM conversations WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * Counts one successful user turn and says whether it is the review turn.
 * One statement, so concurrent turns can never both see the cadence.
 */
export async function bumpNudge(db: Queryable, conversationId: string, cadence: number): Promise<boolean> {
  const { rows } = await db.query<{ due: boolean }>(
    `UPDATE conversations
     SET user_msgs_since_nudge = CASE WHEN user_msgs_since_nudge + 1 >= $2 THEN 0 ELSE user_msgs_since_nudge + 1 END,
         updated_at = now()
     WHERE id = $1
     RETURNING user_msgs_since_nudge = 0 AS due`,
    [conversationId, cadence],
  );
  return rows[0]?.due ?? false;
}
