// A consistent copy of the live database that blocks other calls only for two
// short statements (docs/data-safety.md, "How a backup is taken"). It is
// Postgres' own online base backup: pg_backup_start (one checkpoint) → copy the
// files with Node's fs while statements go on → pg_backup_stop → copy the
// write-ahead log written meanwhile, and leave backup_label in the copy. Pages
// copied while they changed are repaired when the copy is first opened: Postgres
// replays the log from the checkpoint in backup_label (full-page writes are on).
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../db/client';

/** Left out of the copy (Postgres' list for a base backup): per-run files that would mislead a restore. */
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'pg_internal.init']);
/** Folders copied empty: their contents are rebuilt at start (pg_wal is copied after the stop). */
const EMPTY_DIRS = new Set(['pg_wal', 'pg_stat_tmp', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans']);
/** A WAL segment's name: timeline, then log and segment numbers (24 hex digits). */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

function missing(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Copies a folder tree; a file removed while it is copied (a dropped table) is left out, as Postgres expects. */
async function copyTree(from: string, to: string, top: boolean): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (e) {
    if (missing(e)) return;
    throw e;
  }
  for (const entry of entries) {
    if (SKIP_FILES.has(entry.name)) continue;
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory()) {
      if (top && EMPTY_DIRS.has(entry.name)) await mkdir(dst, { mode: 0o700 });
      else await copyTree(src, dst, false);
    } else if (entry.isFile()) {
      try {
        await copyFile(src, dst);
      } catch (e) {
        if (!missing(e)) throw e;
      }
    }
  }
}

/**
 * Copies the live data folder `pgdata` (served by `db`) into `into`, a new
 * folder. Other statements wait only while pg_backup_start checkpoints and
 * while pg_backup_stop writes its end record; the file copy runs on Node's
 * thread pool beside them.
 */
export async function copyOnline(db: Queryable, pgdata: string, into: string): Promise<void> {
  const { rows } = await db.query<{ file: string }>(`SELECT pg_walfile_name(pg_backup_start('hearth', true)) AS file`);
  const startFile = rows[0]!.file;
  let stop: { labelfile: string; spcmapfile: string | null; file: string };
  try {
    await copyTree(pgdata, into, true);
  } finally {
    // Always ended, even when the copy failed: a backup left open would refuse the next one.
    // pg_backup_stop switches to a new log segment, so its end record is on file before the log is copied.
    const res = await db.query<{ labelfile: string; spcmapfile: string | null; file: string }>(
      `SELECT labelfile, spcmapfile, pg_walfile_name(lsn) AS file FROM pg_backup_stop(false)`,
    );
    stop = res.rows[0]!;
  }
  // The log from the backup's start to its end: what opening the copy replays.
  const wal = join(pgdata, 'pg_wal');
  for (const name of await readdir(wal)) {
    const needed = (WAL_SEGMENT.test(name) && name >= startFile && name <= stop.file) || name.endsWith('.history');
    if (needed) await copyFile(join(wal, name), join(into, 'pg_wal', name));
  }
  await mkdir(join(into, 'pg_wal', 'archive_status'), { recursive: true, mode: 0o700 });
  await writeFile(join(into, 'backup_label'), stop.labelfile, { mode: 0o600 });
  if (stop.spcmapfile) await writeFile(join(into, 'tablespace_map'), stop.spcmapfile, { mode: 0o600 });
}
