// Vacuums at quiet moments (docs/durability.md, "Idle vacuum"). PGlite runs no
// autovacuum, so without this nothing ever marks heap pages all-visible or
// reclaims deleted rows: every count of a persona's memories reads every row's
// page (one 6 kB vector a page, migrations/0003), seconds at 50k, and space
// freed by deletions is never reused.
import { QuietTimeWorker, type QuietTarget, type QuietTimeOptions } from './quiet-time';

export interface IdleVacuumOptions extends QuietTimeOptions {
  /** Pages not yet marked all-visible (or dead rows) that make a vacuum worth running. */
  minPages: number;
  /** …or this share of the table's pages, whichever is larger. */
  fraction: number;
  /** The share of a table's rows changed since its statistics were taken that calls for new ones. */
  analyzeFraction: number;
}

/**
 * Quiet means the same half second as the idle checkpoint (the job runner looks
 * for work once a second, so a longer quiet never comes while the app runs).
 * 64 pages or 5 % of a table: small tables are left alone, a big one is
 * vacuumed once a twentieth of it has changed — after the first time, a vacuum
 * visits only the pages changed since, a fraction of a second at 10k memories.
 */
export const DEFAULT_IDLE_VACUUM: IdleVacuumOptions = { idleMs: 500, pollMs: 1_000, minPages: 64, fraction: 0.05, analyzeFraction: 0.1 };

/**
 * Statistics from a 3,000-row sample (300 × the target) rather than Postgres's
 * 30,000: at one row a page that is 3,000 page reads instead of every page at
 * 10k memories, and ten most-common values and histogram buckets are enough to
 * tell a persona's rows from the rest.
 */
const STATISTICS_TARGET = 10;

export interface TableUpkeep {
  table: string;
  pages: number;
  /** Pages today minus pages the last vacuum marked all-visible. */
  unsettledPages: number;
  /** Rows deleted or replaced since the statistics were last reset (start-up). */
  deadRows: number;
  /** Whether the table has an index whose vacuum is too slow to run inline (HNSW, BM25). */
  slowIndexes: boolean;
  /** Live rows, as the last vacuum or analyze counted them. */
  rows: number;
  /** Whether the planner has any column statistics for it (they live in the catalog, so survive restarts). */
  analyzed: boolean;
  /** Rows changed since the statistics were taken, this session. */
  changedSinceAnalyze: number;
}

/**
 * Per table: how far it is from settled. `relallvisible` lives in the catalog,
 * so it survives restarts (the activity counters do not: PGlite starts them at
 * zero every time).
 */
const UPKEEP_SQL = `
  SELECT c.relname AS table,
         (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
         greatest(0, (pg_relation_size(c.oid) / current_setting('block_size')::int) - c.relallvisible)::int AS "unsettledPages",
         coalesce(s.n_dead_tup, 0)::int AS "deadRows",
         greatest(c.reltuples, 0)::bigint::int AS rows,
         EXISTS (SELECT 1 FROM pg_statistic st WHERE st.starelid = c.oid) AS analyzed,
         coalesce(s.n_mod_since_analyze, 0)::int AS "changedSinceAnalyze",
         EXISTS (SELECT 1 FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
                 WHERE i.indrelid = c.oid AND am.amname NOT IN ('btree', 'gin', 'gist', 'hash', 'brin', 'spgist')) AS "slowIndexes"
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
  WHERE c.relkind = 'r' AND n.nspname = 'public'`;

export async function tableUpkeep(db: QuietTarget): Promise<TableUpkeep[]> {
  // Postgres passes a statement's row counts to the activity statistics at most once a second, at a later
  // statement's end. Unflushed, the dead rows of a delete just made would read as none: the look would find
  // nothing due and, with no write after it, never look again. Forcing the flush makes this read current.
  await db.query('SELECT pg_stat_force_next_flush()');
  return (await db.query<TableUpkeep>(UPKEEP_SQL)).rows;
}

export interface Upkeep {
  table: string;
  slowIndexes: boolean;
  vacuum: boolean;
  analyze: boolean;
}

/** The statement for one table: index cleanup is left out where it would take minutes (docs/durability.md). */
export function upkeepStatement(u: Upkeep): string {
  const ident = `"${u.table.replace(/"/g, '""')}"`;
  if (!u.vacuum) return `ANALYZE ${ident}`;
  const options = [...(u.analyze ? ['ANALYZE'] : []), ...(u.slowIndexes ? ['INDEX_CLEANUP OFF'] : [])];
  return options.length ? `VACUUM (${options.join(', ')}) ${ident}` : `VACUUM ${ident}`;
}

export class IdleVacuum extends QuietTimeWorker {
  /** Vacuums run, by table, for figures and tests. */
  readonly done = new Map<string, number>();
  /**
   * What each table looked like right after its last vacuum here: pages with a
   * row left dead by a skipped index cleanup never become all-visible, so the
   * next vacuum waits for new change beyond them rather than repeating.
   */
  private readonly after = new Map<string, Pick<TableUpkeep, 'unsettledPages' | 'deadRows'>>();
  /** Tables analyzed here: one whose sample was empty has no statistics to show for it, and is not asked again. */
  private readonly analyzedHere = new Set<string>();

  constructor(
    db: QuietTarget,
    private readonly options: IdleVacuumOptions = DEFAULT_IDLE_VACUUM,
    onError?: (e: unknown) => void,
  ) {
    super(db, options, onError);
  }

  /** What a table needs, if anything: a vacuum once enough has changed since it was last settled, statistics once enough rows have changed. */
  due(t: TableUpkeep): Upkeep | null {
    const threshold = Math.max(this.options.minPages, Math.ceil(t.pages * this.options.fraction));
    const settled = this.after.get(t.table) ?? { unsettledPages: 0, deadRows: 0 };
    const vacuum = t.unsettledPages - settled.unsettledPages >= threshold || t.deadRows - settled.deadRows >= threshold;
    // Small tables are read whole whatever the plan: statistics start to matter past the same 64 pages.
    const analyze = t.pages >= this.options.minPages && ((!t.analyzed && !this.analyzedHere.has(t.table)) || t.changedSinceAnalyze >= this.options.minPages + t.rows * this.options.analyzeFraction);
    return vacuum || analyze ? { table: t.table, slowIndexes: t.slowIndexes, vacuum, analyze } : null;
  }

  protected async work(): Promise<void> {
    const tables = await tableUpkeep(this.db);
    // The most unsettled first: one table per quiet moment, so a call arriving meanwhile waits for one at most.
    const next = tables
      .map((t) => ({ t, u: this.due(t) }))
      .filter((x): x is { t: TableUpkeep; u: Upkeep } => x.u !== null)
      .sort((a, b) => b.t.unsettledPages + b.t.deadRows - (a.t.unsettledPages + a.t.deadRows))[0]?.u;
    if (!next || !this.stillFree()) return;
    // Session-wide on the one connection, and read only by ANALYZE, which only this runs.
    if (next.analyze) await this.db.exec(`SET default_statistics_target = ${STATISTICS_TARGET}`);
    await this.db.exec(upkeepStatement(next));
    this.done.set(next.table, (this.done.get(next.table) ?? 0) + 1);
    if (next.analyze) this.analyzedHere.add(next.table);
    const now = (await tableUpkeep(this.db)).find((t) => t.table === next.table);
    this.after.set(next.table, { unsettledPages: now?.unsettledPages ?? 0, deadRows: now?.deadRows ?? 0 });
  }
}
