// Checkpoints while nobody is waiting (docs/durability.md, "Idle checkpoints").
// PGlite runs Postgres in single-user mode: there is no checkpointer process, so
// a checkpoint happens only at close, when max_wal_size (1 GB) fills, or when
// something asks for one — and then the one connection writes and syncs every
// page dirtied since the last, while every other call waits. A backup asks for
// one (pg_backup_start): right after an import that was seconds of a frozen app.
// Taking the checkpoint at the first quiet moment once enough log has built up
// keeps any later one small, and shortens crash recovery too.
import type { Queryable } from './client';
import { QuietTimeWorker, type QuietTarget, type QuietTimeOptions } from './quiet-time';

export interface IdleCheckpointOptions extends QuietTimeOptions {
  /** The log written since the last checkpoint that makes one worth taking (bytes). */
  minWalBytes: number;
}

/**
 * With full-page writes on, the first change to a page after a checkpoint puts
 * the whole 8 kB page in the log, so the log since the last checkpoint bounds
 * the pages a checkpoint must write: 16 MB is at most ~2,000 pages, a fraction
 * of a second. Quiet means half a second with no statement run or waiting: the
 * job runner looks for due work once a second, so a longer wait would never
 * come in a running app; half a second is longer than the gaps between the
 * paced statements of an export or import.
 */
export const DEFAULT_IDLE_CHECKPOINT: IdleCheckpointOptions = { idleMs: 500, minWalBytes: 16 * 1024 * 1024, pollMs: 250 };

export type CheckpointTarget = QuietTarget;

/** The log written since the last checkpoint's redo point, in bytes. */
export async function walSinceCheckpoint(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint::text AS bytes FROM pg_control_checkpoint()',
  );
  return Number(rows[0]?.bytes ?? 0);
}

export class IdleCheckpointer extends QuietTimeWorker {
  /** Checkpoints taken, for figures and tests. */
  taken = 0;

  constructor(
    db: CheckpointTarget,
    private readonly options: IdleCheckpointOptions = DEFAULT_IDLE_CHECKPOINT,
    onError?: (e: unknown) => void,
  ) {
    super(db, options, onError);
  }

  protected async work(): Promise<void> {
    if ((await walSinceCheckpoint(this.db)) < this.options.minWalBytes) return;
    if (!this.stillFree()) return;
    await this.db.exec('CHECKPOINT');
    this.taken++;
  }
}
