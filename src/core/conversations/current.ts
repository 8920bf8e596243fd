// Which conversation a persona is "in" when a caller names none (MCP, older clients, the
// prompt preview): the one used most recently. See docs/conversations.md. An incognito
// conversation is never anyone's current one: only a caller that names it reaches it (docs/privacy.md).
import type { Queryable } from '../db/client';

/** SQL for the current conversation's id of persona $1 (NULL when it has none). */
export const CURRENT_CONVERSATION = `(SELECT id FROM conversations WHERE persona = $1 AND NOT incognito ORDER BY updated_at DESC, created_at DESC LIMIT 1)`;

/** The current conversation's id, created on first use (one statement, so two callers never both create one). */
export async function currentConversationId(db: Queryable, persona: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `WITH cur AS (SELECT id FROM conversations WHERE persona = $1 AND NOT incognito ORDER BY updated_at DESC, created_at DESC LIMIT 1),
          ins AS (INSERT INTO conversations (persona) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM cur) RETURNING id)
     SELECT id FROM cur UNION ALL SELECT id FROM ins`,
    [persona],
  );
  return rows[0]!.id;
}
