// Backups and restore (docs/data-safety.md): consistent snapshots of the whole
// database in <dataDir>/backups, each verified after it is written.
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { BackupInfo } from '../../shared/types';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import { Mutex } from '../db/mutex';
import { isNoSpaceError, diskFullError } from '../disk-full';
import {
  archiveName,
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
import { openSnapshot } from './snapshot';
import { finishInterruptedRestore, INCOMING, REPLACED, swapInRestoredFiles } from './swap';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
const DAY_MS = 24 * 60 * 60 * 1000;

export interface BackupServiceOptions {
  db: Db;
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
  return isNoSpaceError(e) || /No space left on device|ENOSPC|could not extend file/i.test(text) ? diskFullError() : e;
}

export class BackupService {
  /** One backup or restore at a time; other API calls are not held by it (only the short dump is). */
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
   * Snapshot → compress → write (atomic) → read back from disk and open in
   * a scratch folder (counted, integrity-checked) → manifest → prune. The database is
   * held only while PGlite reads its files (the dump), which is what makes the
   * copy consistent; compression and verification run while the app goes on.
   */
  private async createNow(reason: BackupReason): Promise<BackupInfo> {
    const dir = await ensureBackupsDir(this.o.dataDir);
    const id = newBackupId(this.o.now(), reason);
    try {
      let tar: Uint8Array | null = await this.o.db.dump('none');
      const gz = await gzipAsync(tar);
      tar = null;
      await writeFileAtomic(dir, archiveName(id), gz);
      const written = await readFile(join(dir, archiveName(id)));
      const sha256 = createHash('sha256').update(written).digest('hex');
      // Opened in a scratch folder beside it (an in-memory PGlite cannot load the extensions), then removed.
      const scratch = join(dir, `${id}.verify${'.partial'}`);
      let report;
      try {
        report = await openSnapshot(await gunzipAsync(written), scratch);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
      const m: Manifest = {
        format: 'hearth-backup',
        version: 1,
        id,
        createdAt: this.o.now().toISOString(),
        reason,
        appVersion: this.o.appVersion,
        bytes: written.byteLength,
        sha256,
        counts: report.counts,
        verified: report.integrity.ok,
        integrity: report.integrity,
        schema: report.schema,
      };
      await writeFileAtomic(dir, manifestName(id), JSON.stringify(m, null, 2));
      await this.prune();
      return toInfo(m);
    } catch (e) {
      await removeBackup(this.o.dataDir, id).catch(() => undefined);
      throw asDiskFull(e);
    }
  }

  /** Keeps the newest `backupsKeep`; the newest verified backup is never removed. */
  private async prune(): Promise<void> {
    const keep = await this.o.keep();
    const all = await listManifests(this.o.dataDir);
    const newestVerified = all.find((m) => m.verified)?.id;
    for (const m of all.slice(keep)) if (m.id !== newestVerified) await removeBackup(this.o.dataDir, m.id);
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
    const m = await readManifest(this.o.dataDir, id);
    if (!m) throw new AppError('not_found', `There is no backup ${id} (its manifest is missing or unreadable).`);
    let bytes: Buffer;
    try {
      bytes = await readFile(join(backupsDir(this.o.dataDir), archiveName(id)));
    } catch {
      throw damaged(id, 'its archive is missing');
    }
    if (bytes.byteLength !== m.bytes) throw damaged(id, `its archive is ${bytes.byteLength} bytes, ${m.bytes} were written (truncated?)`);
    if (createHash('sha256').update(bytes).digest('hex') !== m.sha256) throw damaged(id, 'its archive was changed or damaged since it was written');
    let tar: Uint8Array;
    try {
      tar = await gunzipAsync(bytes);
    } catch (e) {
      throw damaged(id, `its archive does not decompress (${(e as Error).message})`);
    }

    const before = await this.createNow('before-restore');

    const incoming = join(this.o.dataDir, INCOMING);
    await rm(incoming, { recursive: true, force: true });
    try {
      let report;
      try {
        report = await openSnapshot(tar, incoming);
      } catch (e) {
        const full = asDiskFull(e);
        throw full instanceof AppError && full.code === 'disk_full' ? full : damaged(id, `it does not open (${(e as Error).message})`);
      }
      const differs = (Object.keys(m.counts) as (keyof Manifest['counts'])[]).filter((k) => report.counts[k] !== m.counts[k]);
      if (differs.length) throw damaged(id, `it holds other counts than when it was written (${differs.join(', ')})`);
      if (!report.integrity.ok) throw damaged(id, `its integrity check failed: ${report.integrity.problems.slice(0, 3).join('; ')}`);
    } catch (e) {
      await rm(incoming, { recursive: true, force: true });
      throw e;
    }

    await this.o.db.replaceFiles(() => swapInRestoredFiles(this.o.dataDir));
    await rm(join(this.o.dataDir, REPLACED), { recursive: true, force: true });
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

/** Start-up housekeeping, before the database opens: finish or undo a restore cut short, drop partial backups. */
export async function recoverBackups(dataDir: string): Promise<void> {
  const outcome = await finishInterruptedRestore(dataDir);
  if (outcome === 'finished') console.warn('Hearth: finished a restore that was interrupted.');
  await sweepPartials(dataDir);
}
