// The check after start (docs/durability.md, "Damage nobody reads yet"): a
// zeroed page reads as an empty page, so start-up itself never notices one —
// the rows on it just vanish from every list. Soon after start, in the
// background, each table's first index is compared with the table (the
// missing-slot step of the integrity check): cheap, because it reads the index
// and one page header per table page the index points into, and each table is
// its own short statement, so other calls wait only briefly.
import { BTREE_INDEXES, compareRowCounts, type Relation, USER_TABLES } from './integrity';
import type { Queryable } from './client';

/** Problems found, one line each, naming the table. */
export async function findLostRows(db: Queryable): Promise<string[]> {
  const problems: string[] = [];
  const { rows: tables } = await db.query<Relation>(USER_TABLES);
  for (const table of tables) {
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
