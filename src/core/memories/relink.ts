// Putting a memory back from the trash (docs/trash.md) replaces again what it had replaced. The trash
// sits below the memories domain, so it gets this function from above (restoreFromTrash's `relink`).
import type { Queryable } from '../db/client';
import type { MemoryState } from '../history/memory-versions';

/**
 * Links each of `ids` of `persona` to `by` again, where nothing else replaced it meanwhile, inside the
 * caller's transaction. Returns the state of each memory it linked, for its version record.
 */
export async function supersedeAgainIn(tx: Queryable, ids: string[], by: string, persona: string, at: Date): Promise<MemoryState[]> {
  const { rows } = await tx.query<MemoryState>(
    `UPDATE memories AS m SET superseded_by = $2, superseded_at = $3
     WHERE m.id = ANY($1::uuid[]) AND m.persona = $4 AND m.superseded_by IS NULL
     RETURNING m.id, m.persona, m.content, m.category, m.importance, m.day, m.superseded_by AS "supersededBy"`,
    [ids, by, at, persona],
  );
  return rows;
}
