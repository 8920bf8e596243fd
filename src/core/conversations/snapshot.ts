// conversations.memory_snapshot: the top-memories block rendered once and
// reused verbatim so the system prompt stays byte-for-byte stable (the
// provider's prefix cache) until compaction or /clear nulls it (SPEC §5).
import type { Queryable } from '../db/client';
import { topMemoriesBlock } from '../memories/top';
import { requirePersona } from '../personas/store';

/** The persona's one canonical conversation, created on first use. */
export async function ensureConversation(db: Queryable, persona: string): Promise<string> {
  await requirePersona(db, persona);
  // DO UPDATE (a no-op) rather than DO NOTHING, so RETURNING yields the existing row too.
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO conversations (persona) VALUES ($1)
     ON CONFLICT (persona) DO UPDATE SET persona = EXCLUDED.persona
     RETURNING id`,
    [persona],
  );
  return rows[0]!.id;
}

/** The stored snapshot, or null when none is stored (or no conversation exists yet). */
export async function readSnapshot(db: Queryable, persona: string): Promise<string | null> {
  const { rows } = await db.query<{ memory_snapshot: string | null }>(
    'SELECT memory_snapshot FROM conversations WHERE persona = $1',
    [persona],
  );
  return rows[0]?.memory_snapshot ?? null;
}

export async function writeSnapshot(db: Queryable, persona: string, block: string): Promise<void> {
  await ensureConversation(db, persona);
  await db.query('UPDATE conversations SET memory_snapshot = $2, updated_at = now() WHERE persona = $1', [persona, block]);
}

/** After a successful compaction and on /clear: the next turn renders a fresh block. */
export async function clearSnapshot(db: Queryable, persona: string): Promise<void> {
  await db.query('UPDATE conversations SET memory_snapshot = NULL, updated_at = now() WHERE persona = $1', [persona]);
}

/**
 * The snapshot if one is stored; otherwise renders the top-20 block, stores it
 * and returns it. `coalesce` keeps a snapshot someone stored meanwhile, so two
 * readers always agree.
 */
export async function snapshotOrRender(db: Queryable, persona: string): Promise<string> {
  const stored = await readSnapshot(db, persona);
  if (stored !== null) return stored;
  const block = await topMemoriesBlock(db, persona);
  await ensureConversation(db, persona);
  const { rows } = await db.query<{ memory_snapshot: string }>(
    `UPDATE conversations SET memory_snapshot = coalesce(memory_snapshot, $2)
     WHERE persona = $1 RETURNING memory_snapshot`,
    [persona, block],
  );
  return rows[0]?.memory_snapshot ?? block;
}
