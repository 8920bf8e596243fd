// Moving rows between a live table and the trash, whole (docs/trash.md). Table
// names come only from TRASH_TABLES, never from a caller.
import type { Queryable } from '../db/client';

export const TRASH_TABLES = ['memories', 'memory_not_duplicates', 'user_models', 'knowledge_sources', 'knowledge_chunks', 'knowledge_windows'] as const;
export type TrashTable = (typeof TRASH_TABLES)[number];

/**
 * The columns a row goes back in with: every stored column but the generated
 * ones (recomputed on insert). Read from the catalogue, so a column a later
 * migration adds travels with the row without a change here.
 */
async function writableColumns(q: Queryable, table: TrashTable): Promise<string> {
  const { rows } = await q.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
     ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => `"${r.column_name.replace(/"/g, '""')}"`).join(', ');
}

/** Copies the rows of `table` that `where` selects (alias `t`) into the trash item, after its rows so far. */
export async function keepRows(q: Queryable, itemId: string, table: TrashTable, where: string, params: unknown[]): Promise<number> {
  const first = params.length + 2;
  const { affectedRows } = await q.query(
    `INSERT INTO trash_rows (item_id, seq, tbl, row)
     SELECT $${params.length + 1}::uuid,
            coalesce((SELECT max(seq) FROM trash_rows WHERE item_id = $${params.length + 1}::uuid), 0) + row_number() OVER (),
            $${first}, to_jsonb(t) - 'search_vector'
     FROM ${table} t WHERE ${where}`,
    [...params, itemId, table],
  );
  return affectedRows;
}

/** Puts the item's rows of `table` back into it, as they were (identity columns included). */
export async function putBack(q: Queryable, itemId: string, table: TrashTable): Promise<number> {
  const cols = await writableColumns(q, table);
  const { affectedRows } = await q.query(
    `INSERT INTO ${table} (${cols}) OVERRIDING SYSTEM VALUE
     SELECT ${cols} FROM (
       SELECT r.* FROM trash_rows t, jsonb_populate_record(NULL::${table}, t.row) r
       WHERE t.item_id = $1 AND t.tbl = $2 ORDER BY t.seq
     ) x`,
    [itemId, table],
  );
  return affectedRows;
}
