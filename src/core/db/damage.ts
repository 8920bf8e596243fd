// A read error from a damaged page, turned into a message that names the
// table (docs/durability.md). Postgres reports the relation only by file path.
import { AppError } from '../../shared/errors';
import { DbError, type Queryable } from './client';
import { refusalDetails, restoreAdvice } from './data-folder';

/** XX001 data_corrupted, XX002 index_corrupted. */
const CORRUPTION_STATES = new Set(['XX001', 'XX002']);
const RELATION_PATH = /relation ("?)((?:base|global|pg_tblspc)\/[0-9/_a-z]+)\1/;

export function isDamage(e: unknown): e is DbError {
  return e instanceof DbError && (CORRUPTION_STATES.has(e.sqlState ?? '') || /invalid page in block|could not read block/.test(e.message));
}

/** data_damaged naming the table (or index) when e is a damaged-page error; null otherwise. */
export async function describeDamage(db: Queryable, e: unknown, dataDir: string, during: string, forPage = false): Promise<AppError | null> {
  if (!isDamage(e)) return null;
  let name = 'a table';
  const path = RELATION_PATH.exec(e.message)?.[2];
  if (path) {
    try {
      const { rows } = await db.query<{ name: string; kind: string; table: string | null }>(
        `SELECT c.relname AS name, c.relkind::text AS kind, t.relname AS table
           FROM pg_class c LEFT JOIN pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = i.indrelid
          WHERE pg_relation_filepath(c.oid) = $1`,
        [path.replace(/_(fsm|vm|init)$/, '').replace(/\.\d+$/, '')],
      );
      const r = rows[0];
      if (r) name = r.kind === 'i' && r.table ? `index ${r.name} of table ${r.table}` : `table ${r.name}`;
    } catch {
      // The catalog itself may be what is damaged: keep the generic name.
    }
  }
  return new AppError(
    'data_damaged',
    // The raw message names the file by its path inside the folder (base/5/16390), not the computer's.
    `Hearth could not ${during}: the ${name} is damaged (${e.message}).${restoreAdvice(dataDir, forPage)}`,
    refusalDetails(dataDir, { relation: name }),
  );
}
