// conversations.memory_snapshot: the top-memories block rendered once and
// reused verbatim so the system prompt stays byte-for-byte stable (the
// provider's prefix cache) until compaction or /clear nulls it (docs/memory-model.md).
import type { Queryable } from '../db/client';
import { topMemoriesBlock } from '../memories/top';
import { requirePersona } from '../personas/store';
import { CURRENT_CONVERSATION, currentConversationId } from './current';

/** The persona's current conversation (see current.ts), created on first use. */
export async function ensureConversation(db: Queryable, persona: string): Promise<string> {
  await requirePersona(db, persona);
  return currentConversationId(db, persona);
}

// Each function acts on `conversation` when given, else on the persona's current one.
const TARGET = `id = coalesce($2::uuid, ${CURRENT_CONVERSATION}) AND persona = $1`;

/** The stored snapshot, or null when none is stored (or no conversation exists yet). */
export async function readSnapshot(db: Queryable, persona: string, conversation?: string): Promise<string | null> {
  const { rows } = await db.query<{ memory_snapshot: string | null }>(`SELECT memory_snapshot FROM conversations WHERE ${TARGET}`, [
    persona,
    conversation ?? null,
  ]);
  return rows[0]?.memory_snapshot ?? null;
}

export async function writeSnapshot(db: Queryable, persona: string, block: string, conversation?: string): Promise<void> {
  const id = conversation ?? (await ensureConversation(db, persona));
  await db.query('UPDATE conversations SET memory_snapshot = $3, updated_at = now() WHERE id = $2 AND persona = $1', [persona, id, block]);
}

/** After a successful compaction and on /clear: the next turn renders a fresh block. */
export async function clearSnapshot(db: Queryable, persona: string, conversation?: string): Promise<void> {
  await db.query(`UPDATE conversations SET memory_snapshot = NULL, updated_at = now() WHERE ${TARGET}`, [persona, conversation ?? null]);
}

/**
 * The snapshot if one is stored; otherwise renders the top-20 block, stores it
 * and returns it. `coalesce` keeps a snapshot someone stored meanwhile, so two
 * readers always agree.
 */
export async function snapshotOrRender(db: Queryable, persona: string, conversation?: string): Promise<string> {
  const stored = await readSnapshot(db, persona, conversation);
  if (stored !== null) return stored;
  const block = await topMemoriesBlock(db, persona);
  const id = conversation ?? (await ensureConversation(db, persona));
  // updated_at is left alone: rendering a snapshot is not using the conversation.
  const { rows } = await db.query<{ memory_snapshot: string }>(
    `UPDATE conversations SET memory_snapshot = coalesce(memory_snapshot, $3)
     WHERE id = $2 AND persona = $1 RETURNING memory_snapshot`,
    [persona, id, block],
  );
  return rows[0]?.memory_snapshot ?? block;
}
