// Incognito conversations leave nothing behind (docs/privacy.md): closing one
// deletes it, and whatever a stop left open is deleted at the next start.
import type { Queryable } from '../db/client';

/**
 * Deletes the conversation if it is incognito; any other conversation is left as it is
 * (deleting one of those stays conversations.delete, the person's explicit act).
 */
export async function closeConversation(db: Queryable, persona: string, id: string): Promise<{ deleted: boolean }> {
  const { affectedRows } = await db.query('DELETE FROM conversations WHERE id = $2 AND persona = $1 AND incognito', [persona, id]);
  return { deleted: affectedRows > 0 };
}

/**
 * The start-up sweep: incognito conversations a stop left open. On this computer's own data
 * folder every one of them (one Hearth owns it); on a database server other Hearths may have
 * one open right now, so only those unused for a day (docs/server-mode.md).
 */
export async function sweepIncognito(db: Queryable, shared: boolean): Promise<number> {
  const { affectedRows } = await db.query(
    shared
      ? `DELETE FROM conversations WHERE incognito AND updated_at < now() - interval '1 day'`
      : 'DELETE FROM conversations WHERE incognito',
  );
  return affectedRows;
}
