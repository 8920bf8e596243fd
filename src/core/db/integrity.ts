// The integrity check: does every table and index of the app read back whole?
// Used after a restore, on demand from Settings, and by the power-loss tests
// (docs/durability.md). amcheck is loaded and created by the database worker.
import type { Queryable } from './client';

export interface IntegrityReport {
  ok: boolean;
  /** How many tables and indexes were checked. */
  checked: number;
  /** One line per problem, naming the table (and index) it was found in. */
  problems: string[];
}

export interface Relation {
  oid: number;
  name: string;
}

export const USER_TABLES = `
  SELECT c.oid::int AS oid, c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'm') AND n.nspname = 'public'
   ORDER BY c.relname`;

export const BTREE_INDEXES = `
  SELECT i.indexrelid::int AS oid, ic.relname AS name
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
   WHERE i.indrelid = $1 AND am.amname = 'btree' AND i.indisvalid AND i.indisready
   ORDER BY i.indisprimary DESC, ic.relname`;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Checks every table of the public schema (heap and TOAST, with
 * verify_heapam), every valid btree index on it (bt_index_check with
 * heapallindexed: each row is in the index) and, the other way round, that an
 * index scan finds no more rows than the table holds. That last step matters:
 * Postgres reads an all-zero page as an empty new page, so a zeroed block
 * passes amcheck while its rows vanish; only the index still remembers them.
 * Never throws for a damaged relation: a read error becomes a problem line.
 */
export async function checkIntegrity(db: Queryable): Promise<IntegrityReport> {
  const problems: string[] = [];
  let checked = 0;
  const { rows: tables } = await db.query<Relation>(USER_TABLES);
  for (const table of tables) {
    checked++;
    try {
      const { rows } = await db.query<{ blkno: number; msg: string }>(
        `SELECT blkno::int AS blkno, msg FROM verify_heapam($1::regclass, check_toast => true) LIMIT 20`,
        [table.oid],
      );
      for (const r of rows) problems.push(`table ${table.name}: block ${r.blkno}: ${r.msg}`);
    } catch (e) {
      problems.push(`table ${table.name}: ${messageOf(e)}`);
    }
    let indexes: Relation[] = [];
    try {
      indexes = (await db.query<Relation>(BTREE_INDEXES, [table.oid])).rows;
    } catch (e) {
      problems.push(`table ${table.name}: its indexes could not be listed: ${messageOf(e)}`);
    }
    for (const index of indexes) {
      checked++;
      try {
        await db.query(`SELECT bt_index_check($1::regclass, true)`, [index.oid]);
      } catch (e) {
        problems.push(`table ${table.name}, index ${index.name}: ${messageOf(e)}`);
      }
    }
    if (indexes[0]) {
      const problem = await compareRowCounts(db, table, indexes[0]);
      if (problem) problems.push(problem);
    }
  }
  return { ok: problems.length === 0, checked, problems };
}

/**
 * Index entries whose heap slot does not exist: the page they point into was
 * zeroed or cut short. A dead row still has its slot until vacuum removes the
 * index entry first, so a missing slot is always damage, never a deleted row.
 */
export const MISSING_SLOTS = `
  WITH leaf AS (
    SELECT b FROM generate_series(1, (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int - 1) b
     WHERE (bt_page_stats($1::regclass::text, b::bigint)).type = 'l'
  ), refs AS (
    SELECT DISTINCT t AS tid
      FROM leaf
      CROSS JOIN LATERAL bt_page_items($1::regclass::text, leaf.b::bigint) i
      CROSS JOIN LATERAL unnest(coalesce(i.tids, ARRAY[i.htid])) t
     WHERE t IS NOT NULL
       AND NOT (i.itemoffset = 1 AND (bt_page_stats($1::regclass::text, leaf.b::bigint)).btpo_next <> 0)
  ), per_block AS (
    SELECT (tid::text::point)[0]::int AS blk, array_agg((tid::text::point)[1]::int) AS offs FROM refs GROUP BY 1
  )
  SELECT coalesce(sum((SELECT count(*) FROM unnest(p.offs) o WHERE o > (h.lower - 24) / 4)), 0)::int AS missing,
         (SELECT count(*) FROM refs)::int AS entries
    FROM per_block p
    CROSS JOIN LATERAL page_header(get_raw_page($2::regclass::text, 'main', p.blk::bigint)) h`;

/** Rows listed in the index but missing from the table: a lost page. */
export async function compareRowCounts(db: Queryable, table: Relation, index: Relation): Promise<string | null> {
  try {
    const { rows } = await db.query<{ missing: number; entries: number }>(MISSING_SLOTS, [index.oid, table.oid]);
    const missing = rows[0]?.missing ?? 0;
    if (missing > 0) {
      return `table ${table.name}: ${missing} of ${rows[0]?.entries ?? 0} rows listed in index ${index.name} are missing from the table (a damaged page)`;
    }
    return null;
  } catch (e) {
    return `table ${table.name}: ${messageOf(e)}`;
  }
}
