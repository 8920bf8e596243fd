// What a chat turn changes on its conversation's row: when it was last used, the rolling summary, the
// review cadence. The chat domain (above) calls these; the conversations table is written only here and
// in this folder's other stores (docs/architecture.md, "Each table has one owner").
import type { Queryable } from '../db/client';

/** Using a conversation makes it the persona's current one (the most recently updated). */
export async function touchConversation(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE conversations SET updated_at = now() WHERE id = $1`, [id]);
}

/** /clear: the rolling summary, the memory snapshot and the review count start over. */
export async function resetConversation(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE conversations SET summary = '', memory_snapshot = NULL, user_msgs_since_nudge = 0, updated_at = now() WHERE id = $1`,
    [id],
  );
}

/**
 * Stores a new rolling summary only if the stored one is still `previous` (compare and set): the row lock
 * queues a second writer behind this one, which then finds the summary changed. True when it was stored.
 */
export async function replaceSummary(db: Queryable, id: string, summary: string, previous: string): Promise<boolean> {
  const { affectedRows } = await db.query(
    `UPDATE conversations SET summary = $2, memory_snapshot = NULL, updated_at = now()
     WHERE id = $1 AND summary = $3`,
    [id, summary, previous],
  );
  return affectedRows === 1;
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
