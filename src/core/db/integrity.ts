// The integrity check: does every table and index read back whole?
// A minimal version written by the backups work against the agreed interface;
// the full amcheck-based check (docs/data-safety.md) replaces this file.
import type { Queryable } from './client';

export interface IntegrityReport {
  ok: boolean;
  /** How many tables were checked. */
  checked: number;
  /** One line per problem, naming the table it was found in. */
  problems: string[];
}

/** Reads every row of every table of the app; a read error becomes a problem line, never a throw. */
export async function checkIntegrity(db: Queryable): Promise<IntegrityReport> {
  const problems: string[] = [];
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY c.relname`,
  );
  for (const t of tables) {
    try {
      await db.query(`SELECT count(*) FROM (SELECT * FROM ${JSON.stringify(t.name)}) AS every_row`);
    } catch (e) {
      problems.push(`table ${t.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { ok: problems.length === 0, checked: tables.length, problems };
}
