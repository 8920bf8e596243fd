// The check after start (docs/durability.md, "Damage nobody reads yet"): a
// zeroed page reads as an empty page, so start-up itself never notices one —
// the rows on it just vanish from every list. Soon after start, in the
// background, each table's first index is compared with the table (the
// missing-slot step of the integrity check): cheap, because it reads the index
// and one page header per table page the index points into, and each table is
// its own short statement, so other calls wait only briefly.
import { BTREE_INDEXES, compareRowCounts, MISSING_SLOTS, type Relation, USER_TABLES } from './integrity';
import type { Queryable } from './client';
import { describeDamage, isDamage } from './damage';
import { restoreAdvice } from './data-folder';

/**
 * The tables the first view reads (the persona list counts memories; the
 * memory browser, the user model and the conversation list follow at once).
 * They are checked before the core answers its first call: a garbage page
 * there would make those lists fail, a zeroed one would show them short.
 */
export const FIRST_READ_TABLES = ['personas', 'memories', 'user_models', 'conversations'] as const;

/**
 * Reads every page of the first-read tables that an index points into (the
 * missing-slot step of the integrity check, which also verifies each page's
 * checksum as it reads it). Returns notices for the person: a damaged page
 * (reads of that table fail) or rows missing from a zeroed page, each naming
 * the table and the newest backup. Never throws for damage.
 */
export async function checkFirstReads(db: Queryable, dataDir: string): Promise<string[]> {
  const notices: string[] = [];
  const { rows: tables } = await db.query<Relation>(
    `SELECT c.oid::int AS oid, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname = ANY($1::text[]) ORDER BY c.relname`,
    [FIRST_READ_TABLES],
  );
  for (const table of tables) {
    const index = (await db.query<Relation>(BTREE_INDEXES, [table.oid])).rows[0];
    if (!index) continue;
    try {
      const r = (await db.query<{ missing: number; entries: number }>(MISSING_SLOTS, [index.oid, table.oid])).rows[0];
      if (r && r.missing > 0) {
        notices.push(
          `Hearth found damage in its database at start: ${r.missing} of ${r.entries} rows of the table ${table.name} cannot be read (a page of it is blank), ` +
            `so lists show fewer than there are.${restoreAdvice(dataDir, true)} Settings → Data → Restore… restores a backup.`,
        );
      }
    } catch (e) {
      const damage = isDamage(e) ? await describeDamage(db, e, dataDir, 'read every page at start', true) : null;
      if (!damage) throw e;
      notices.push(`${damage.message} Until then, what reads that table fails with this message. Settings → Data → Restore… restores a backup.`);
    }
  }
  return notices;
}

/** Problems found, one line each, naming the table. The first-read tables were checked at start already. */
export async function findLostRows(db: Queryable): Promise<string[]> {
  const problems: string[] = [];
  const { rows: tables } = await db.query<Relation>(USER_TABLES);
  for (const table of tables) {
    if ((FIRST_READ_TABLES as readonly string[]).includes(table.name)) continue;
    try {
      const index = (await db.query<Relation>(BTREE_INDEXES, [table.oid])).rows[0];
      const problem = index ? await compareRowCounts(db, table, index) : null;
      if (problem) problems.push(problem);
    } catch (e) {
      problems.push(`table ${table.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return problems;
}

/** What the person reads when the check after start finds damage. */
export function lostRowsNotice(problems: string[]): string {
  return (
    `Hearth found damage in its database soon after starting: ${problems.slice(0, 3).join('; ')}. ` +
    'Nothing was changed. What is still readable is shown, but some rows cannot be read. ' +
    'Restore the newest backup from Settings → Data (Restore…), or run Check integrity there for the full list.'
  );
}
