// Backups and restore (docs/data-safety.md): consistent snapshots of the whole
// database in <dataDir>/backups, each verified after it is written.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackupInfo } from '../../shared/types';
import { AppError } from '../../shared/errors';
import type { PgliteDb } from '../db/client';
import { Mutex } from '../db/mutex';
import { diskFullError, isNoSpaceError, SQLSTATE_DISK_FULL } from '../disk-full';
import {
  archiveName,
  backupId,
  type BackupCounts,
  type BackupReason,
  backupsDir,
  ensureBackupsDir,
  listManifests,
  type Manifest,
  manifestName,
  newBackupId,
  readManifest,
  removeBackup,
  sweepPartials,
  toInfo,
  writeFileAtomic,
} from './files';
import { extractArchive, hashFile, writeArchive } from './archive';
import { copyOnline } from './online-copy';
import { openSnapshot } from './snapshot';
import { finishInterruptedRestore, INCOMING, REPLACED, swapInRestoredFiles } from './swap';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BackupServiceOptions {
  db: PgliteDb;
  dataDir: string;
  appVersion: string;
  now(): Date;
  /** How many backups to keep (the `backupsKeep` setting, read at each prune). */
  keep(): Promise<number>;
}

function damaged(id: string, why: string): AppError {
  return new AppError(
    'backup_damaged',
    `The backup ${id} cannot be restored: ${why}. Nothing was changed; your current data is as it was.`,
  );
}

/** ENOSPC from a file write or Postgres becomes the one clear `disk_full` error. */
function asDiskFull(e: unknown): unknown {
  const text = e instanceof Error ? e.message : String(e);
  const sqlState = (e as { sqlState?: string } | null)?.sqlState;
  return isNoSpaceError(e) || sqlState === SQLSTATE_DISK_FULL || /No space left on device|ENOSPC|could not extend file/i.test(text)
    ? diskFullError()
    : e;
}

export class BackupService {
  /** One backup or restore at a time; other API calls are not held by it (only its two short statements are). */
  private busy = new Mutex();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly o: BackupServiceOptions) {}

  async list(): Promise<BackupInfo[]> {
    return (await listManifests(this.o.dataDir)).map(toInfo);
  }

  create(reason: BackupReason): Promise<BackupInfo> {
    return this.busy.run(() => this.createNow(reason));
  }

  /**
   * Online copy of the live files (other calls wait only for a checkpoint
   * and the backup's end record: online-copy.ts) → archive (atomic) → read
   * back from disk: unpacked in a scratch folder, opened (which replays the
   * log the copy carries), counted, integrity-checked → manifest → prune.
   */
  /** `rotate: false` leaves rotation to the caller (a restore rotates only once it is over). */
  private async createNow(reason: BackupReason, rotate = true): Promise<BackupInfo> {
    const dir = await ensureBackupsDir(this.o.dataDir);
    const id = newBackupId(this.o.now(), reason);
    // Both end in .partial: a kill leaves them for sweepPartials at the next start.
    const copy = join(dir, `${id}.copy.partial`);
    const scratch = join(dir, `${id}.verify.partial`);
    try {
      await copyOnline(this.o.db, join(this.o.dataDir, 'pgdata'), copy);
      const archive = join(dir, archiveName(id));
      await writeArchive(copy, archive);
      await rm(copy, { recursive: true, force: true });
      const { sha256, bytes } = await hashFile(archive);
      await extractArchive(archive, scratch);
      const report = await openSnapshot(scratch);
      const m: Manifest = {
        format: 'hearth-backup',
        version: 1,
        id,
        createdAt: this.o.now().toISOString(),
        reason,
        appVersion: this.o.appVersion,
        bytes,
        sha256,
        counts: report.counts,
        verified: report.integrity.ok,
        integrity: report.integrity,
        schema: report.schema,
      };
      await writeFileAtomic(dir, manifestName(id), JSON.stringify(m, null, 2));
      if (rotate) await this.prune(m.counts, []);
      return toInfo(m);
    } catch (e) {
      await removeBackup(this.o.dataDir, id).catch(() => undefined);
      throw asDiskFull(e);
    } finally {
      await rm(copy, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /**
   * Keeps the newest `backupsKeep`, counting these among them and never
   * removing them: the newest verified backup, the newest one that holds more
   * than the database now does (`current`: a database emptied by mistake or
   * started empty must not rotate its last full copy away with daily backups
   * of nothing), and `also` (the archive a restore just read from).
   */
  private async prune(current: BackupCounts, also: string[]): Promise<void> {
    const keep = await this.o.keep();
    const all = await listManifests(this.o.dataDir);
    const kept = new Set(also);
    const newestVerified = all.find((m) => m.verified)?.id;
    if (newestVerified) kept.add(newestVerified);
    const holdsMore = all.find((m) => (Object.keys(current) as (keyof BackupCounts)[]).some((k) => m.counts[k] > current[k]));
    if (holdsMore) kept.add(holdsMore.id);
    let room = keep - all.filter((m) => kept.has(m.id)).length;
    for (const m of all) {
      if (kept.has(m.id)) continue;
      if (room > 0) room--;
      else await removeBackup(this.o.dataDir, m.id);
    }
  }

  restore(id: string): Promise<{ restored: BackupInfo; before: BackupInfo }> {
    return this.busy.run(() => this.restoreNow(id));
  }

  /**
   * Checked first (manifest, checksum, gzip, opens, counts match, integrity),
   * then the current state is backed up, then the snapshot is written out
   * beside the live files and swapped in with renames while the database is
   * closed (src/core/backups/swap.ts), then reopened. Any failure before the
   * swap leaves the current data untouched.
   */
  private async restoreNow(id: string): Promise<{ restored: BackupInfo; before: BackupInfo }> {
    const { m, archive } = await checkedArchive(this.o.dataDir, id);
    // Rotation waits until the restore is over: with backupsKeep backups already there, the
    // before-restore backup would otherwise push out the oldest — perhaps the one being restored.
    const before = await this.createNow('before-restore', false);
    let restored = false;
    try {
      await unpackChecked(this.o.dataDir, m, archive);
      await this.o.db.replaceFiles(() => swapInRestoredFiles(this.o.dataDir));
      await rm(join(this.o.dataDir, REPLACED), { recursive: true, force: true });
      restored = true;
    } finally {
      // The archive just restored from stays: it is what the person chose, and the newest copy of what they now have.
      await this.prune(restored ? m.counts : before.counts, [id]).catch((e: unknown) =>
        console.warn('Hearth: removing old backups after a restore failed:', e instanceof Error ? e.message : e),
      );
    }
    return { restored: toInfo(m), before };
  }

  /** Daily while running: checks hourly whether the newest backup is a day old. */
  startSchedule(firstCheckMs = 5 * 60_000): void {
    const check = async () => {
      if (this.stopped) return;
      try {
        const newest = (await listManifests(this.o.dataDir))[0];
        if (!newest || this.o.now().getTime() - Date.parse(newest.createdAt) >= DAY_MS) await this.create('daily');
      } catch (e) {
        console.error('daily backup failed:', e instanceof Error ? e.message : e);
      }
      if (!this.stopped) this.timer = setTimeout(() => void check(), 60 * 60 * 1000).unref();
    };
    this.timer = setTimeout(() => void check(), firstCheckMs).unref();
  }

  /** Stops the schedule and waits for a backup or restore under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.busy.run(async () => undefined);
  }
}

/** A backup's manifest, and its archive as written (size, sha256): checked before anything is touched. */
async function checkedArchive(dataDir: string, id: string): Promise<{ m: Manifest; archive: string }> {
  const m = await readManifest(dataDir, id);
  if (!m) throw new AppError('not_found', `There is no backup ${id} (its manifest is missing or unreadable).`);
  const archive = join(backupsDir(dataDir), archiveName(id));
  let size: number;
  try {
    size = (await stat(archive)).size;
  } catch {
    throw damaged(id, 'its archive is missing');
  }
  if (size !== m.bytes) throw damaged(id, `its archive is ${size} bytes, ${m.bytes} were written (truncated?)`);
  if ((await hashFile(archive)).sha256 !== m.sha256) throw damaged(id, 'its archive was changed or damaged since it was written');
  return { m, archive };
}

/** Unpacks the archive beside the live files (INCOMING), opens it there, and checks counts and integrity. */
async function unpackChecked(dataDir: string, m: Manifest, archive: string): Promise<void> {
  const incoming = join(dataDir, INCOMING);
  await rm(incoming, { recursive: true, force: true });
  try {
    let report;
    try {
      await extractArchive(archive, incoming);
      report = await openSnapshot(incoming);
    } catch (e) {
      const full = asDiskFull(e);
      throw full instanceof AppError && full.code === 'disk_full' ? full : damaged(m.id, `it does not open (${(e as Error).message})`);
    }
    const differs = (Object.keys(m.counts) as (keyof Manifest['counts'])[]).filter((k) => report.counts[k] !== m.counts[k]);
    if (differs.length) throw damaged(m.id, `it holds other counts than when it was written (${differs.join(', ')})`);
    if (!report.integrity.ok) throw damaged(m.id, `its integrity check failed: ${report.integrity.problems.slice(0, 3).join('; ')}`);
  } catch (e) {
    await rm(incoming, { recursive: true, force: true });
    throw e;
  }
}

/**
 * A restore the person chose when Hearth refused to start (docs/data-safety.md,
 * "Telling the person"): before the database opens, so nothing is backed up
 * first — a missing or empty database has nothing to keep, and a damaged one is
 * not deleted but set aside as `pgdata.damaged-<time>`. `id` may be 'newest'
 * (the newest verified backup). Returns the restored backup.
 */
export async function restoreAtStart(dataDir: string, id: string, now: Date): Promise<{ restored: BackupInfo; setAside: string | null }> {
  let chosen = id;
  if (id === 'newest') {
    const newest = (await listManifests(dataDir)).find((x) => x.verified);
    if (!newest) throw new AppError('not_found', `There is no verified backup in ${backupsDir(dataDir)} to restore.`);
    chosen = newest.id;
  } else if (!backupId.safeParse(id).success) {
    throw new AppError('invalid_args', `"${id}" is not a backup id (the newest is restored with "newest").`);
  }
  const { m, archive } = await checkedArchive(dataDir, chosen);
  await unpackChecked(dataDir, m, archive);
  const live = join(dataDir, 'pgdata');
  let setAside: string | null = null;
  if (existsSync(live) && (!statSync(live).isDirectory() || readdirSync(live).length > 0)) {
    setAside = join(dataDir, `${DAMAGED_PREFIX}${now.toISOString().replace(/[-:.]/g, '')}`);
    await rename(live, setAside);
  } else {
    await rm(live, { recursive: true, force: true });
  }
  await swapInRestoredFiles(dataDir);
  return { restored: toInfo(m), setAside };
}

/** Where a restore chosen at start sets a damaged database aside (never deleted by Hearth). */
export const DAMAGED_PREFIX = 'pgdata.damaged-';

/** Start-up housekeeping, before the database opens: finish or undo a restore cut short, drop partial backups. */
export async function recoverBackups(dataDir: string): Promise<'finished' | 'discarded' | 'none'> {
  const outcome = await finishInterruptedRestore(dataDir);
  if (outcome === 'finished') console.warn('Hearth: finished a restore that was interrupted.');
  await sweepPartials(dataDir);
  return outcome;
}
