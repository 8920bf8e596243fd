// Telling a new data folder from a damaged one before PGlite opens it. PGlite
// runs initdb whenever PG_VERSION is missing — over whatever else is there —
// so a folder that lost that one file would silently start empty. We refuse
// instead, and say where the newest backup is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { clusterFileProblem } from './cluster-files';

/** The size of Postgres' control file: a shorter or missing one cannot be a database. */
const PG_CONTROL_SIZE = 8192;

/** The newest backup beside a data folder, as far as its files tell without opening anything. */
export interface NewestBackup {
  /** The archive's path. */
  path: string;
  id: string;
  /** From its manifest; null when the manifest cannot be read. */
  createdAt: string | null;
  counts: { personas: number; memories: number } | null;
}

/** Just what a refusal names; the backups domain validates manifests fully before restoring. */
const manifestHead = z.object({
  id: z.string(),
  createdAt: z.string(),
  counts: z.object({ personas: z.number(), memories: z.number() }),
});

/**
 * `<dataDir>/backups/`'s newest archive (what a restore would start from):
 * by its manifest's time, or by the file's time for archives whose manifest
 * cannot be read.
 */
export function newestBackup(dataDir: string): NewestBackup | null {
  const dir = join(dataDir, 'backups');
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) return null;
    names = readdirSync(dir);
  } catch {
    return null;
  }
  let best: (NewestBackup & { at: number }) | null = null;
  for (const name of names) {
    // Archives only: a manifest (.json) or a temporary (.partial) is not something to restore.
    if (name.startsWith('.') || !name.endsWith('.tar.gz')) continue;
    const id = name.slice(0, -'.tar.gz'.length);
    const path = join(dir, name);
    let head: z.infer<typeof manifestHead> | null = null;
    try {
      const parsed = manifestHead.safeParse(JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')));
      head = parsed.success && parsed.data.id === id ? parsed.data : null;
    } catch {
      head = null;
    }
    let at: number;
    try {
      at = head ? Date.parse(head.createdAt) : statSync(path).mtimeMs;
    } catch {
      continue;
    }
    if (!best || at > best.at) best = { path, id, createdAt: head?.createdAt ?? null, counts: head?.counts ?? null, at };
  }
  return best ? { path: best.path, id: best.id, createdAt: best.createdAt, counts: best.counts } : null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A backup in words: when it was taken and what it holds. */
export function describeBackup(b: NewestBackup, withPath = true): string {
  const when = b.createdAt ? `taken ${b.createdAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}` : 'its manifest unreadable';
  const holds = b.counts ? `, holding ${plural(b.counts.memories, 'memory', 'memories')} in ${plural(b.counts.personas, 'persona', 'personas')}` : '';
  return `${b.id} (${when}${holds}${withPath ? `; the file ${b.path}` : ''})`;
}

/** What to tell a person whose data cannot be opened: nothing was changed, and where to go from here. */
export function restoreAdvice(dataDir: string, forPage = false): string {
  const backup = newestBackup(dataDir);
  // Text a page shows names no path on this computer (docs/security.md).
  if (forPage) {
    return backup
      ? ` Nothing was changed or deleted. The newest backup is ${describeBackup(backup, false)}.`
      : ' Nothing was changed or deleted. There is no backup to restore from; keep the data folder as it is for recovery.';
  }
  return backup
    ? ` Nothing was changed or deleted. The newest backup is ${describeBackup(backup)}; restore it (README, "Your data") or keep the folder for recovery.`
    : ` Nothing was changed or deleted. There is no backup Hearth can read in ${join(dataDir, 'backups')}; keep the folder as it is for recovery (README, "Your data").`;
}

/** The `details` of a start-up refusal: what a door needs to offer the newest backup. */
export function refusalDetails(dataDir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const b = newestBackup(dataDir);
  return { ...extra, newestBackup: b ? { id: b.id, createdAt: b.createdAt, counts: b.counts } : null };
}

function problemOf(pgdata: string): string | null {
  const version = join(pgdata, 'PG_VERSION');
  if (!existsSync(version)) return 'its PG_VERSION file is missing';
  if (!/^\d+\s*$/.test(readFileSync(version, 'utf8'))) return 'its PG_VERSION file is not a version number';
  const control = join(pgdata, 'global', 'pg_control');
  if (!existsSync(control)) return 'its control file (global/pg_control) is missing';
  if (statSync(control).size !== PG_CONTROL_SIZE) return 'its control file (global/pg_control) is cut short';
  return null;
}

/**
 * Throws data_damaged when `pgdata` holds files but not a database PGlite can
 * open as is. A missing or empty `pgdata` is a new folder — unless backups lie
 * beside it: then the database went missing, and starting empty would hide a
 * backed-up life behind an empty app (and daily backups of nothing would
 * follow). That is data_missing, refused unless the person chose `startEmpty`.
 */
export function checkDataFolder(dataDir: string, options: { startEmpty?: boolean } = {}): void {
  const pgdata = join(dataDir, 'pgdata');
  const present = existsSync(pgdata);
  if (present && !statSync(pgdata).isDirectory()) {
    throw new AppError('data_damaged', `The database folder ${pgdata} is not a folder.${restoreAdvice(dataDir)}`, refusalDetails(dataDir));
  }
  if (!present || readdirSync(pgdata).length === 0) {
    const backup = newestBackup(dataDir);
    if (backup && !options.startEmpty) {
      throw new AppError(
        'data_missing',
        `The database folder ${pgdata} is ${present ? 'empty' : 'missing'}, but backups of it are in ${join(dataDir, 'backups')}. ` +
          `Hearth did not start with an empty database over them. The newest backup is ${describeBackup(backup)}. ` +
          'Restore it, or start with no data only if that is what you want (your backups stay where they are).',
        refusalDetails(dataDir, { canStartEmpty: true }),
      );
    }
    return;
  }
  const problem = problemOf(pgdata) ?? clusterFileProblem(pgdata);
  if (problem) {
    throw new AppError(
      'data_damaged',
      `The database in ${pgdata} is damaged: ${problem}. Hearth will not create a new database over it.${restoreAdvice(dataDir)}`,
      refusalDetails(dataDir),
    );
  }
}

/**
 * The data folder itself, before anything is written to it: a file where the
 * folder should be, or a folder that belongs to another user (Hearth would
 * fail on its first write with a raw EPERM — or, run as root, leave files its
 * owner cannot open), is refused in words.
 */
export function checkDataDirItself(dataDir: string): void {
  let st;
  try {
    st = statSync(dataDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new AppError('data_damaged', `Hearth cannot look at its data folder ${dataDir} (${(e as Error).message}). Nothing was changed or deleted.`);
  }
  if (!st.isDirectory()) {
    throw new AppError(
      'data_damaged',
      `The data folder ${dataDir} is a file, not a folder, so there is no database or backup in it to open. Nothing was changed or deleted. ` +
        'Move that file away, or start Hearth with another data folder (HEARTH_DATA_DIR or --data-dir).',
    );
  }
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new AppError(
      'forbidden',
      `The data folder ${dataDir} belongs to another user (user id ${st.uid}), not to the user Hearth runs as (user id ${uid}). ` +
        `Hearth did not open it, so nothing in it was changed. Start Hearth as its owner, or give it a folder of its own.${backupInWords(dataDir)}`,
      refusalDetails(dataDir),
    );
  }
}

function backupInWords(dataDir: string): string {
  const b = newestBackup(dataDir);
  return b ? ` Its newest backup is ${describeBackup(b)}.` : '';
}

/** True when `dir` is a folder with something in it. */
export function holdsFiles(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/**
 * An error met while starting on a data folder, in words: a full disk is
 * disk_full, an AppError stays as it is, anything else (PGlite's "failed to
 * initialize properly", an aborted WebAssembly run, EPERM…) is data_damaged
 * with the raw text in brackets and the newest backup named.
 */
export function startFailure(e: unknown, dataDir: string, step: string): AppError {
  if (e instanceof AppError) return e;
  const text = e instanceof Error ? e.message : String(e);
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT' || /No space left on device|ENOSPC|could not extend file|could not write/i.test(text)) {
    return new AppError(
      'disk_full',
      `The disk holding Hearth's data folder ${dataDir} is full, so Hearth could not ${step} and did not start. ` +
        `Free some space and start it again; nothing was changed or deleted.${backupInWords(dataDir)}`,
      refusalDetails(dataDir),
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new AppError(
      'forbidden',
      `Hearth is not allowed to write in its data folder ${dataDir} (${text}), so it could not ${step} and did not start. ` +
        `Nothing was changed or deleted. Check who owns the folder and whether it is read-only.${backupInWords(dataDir)}`,
      refusalDetails(dataDir),
    );
  }
  const what = step === 'open its database'
    ? `the database files are there and pass the checks made before opening, but opening them failed (${text.slice(0, 300)}): the damage is in a part those checks do not read.`
    : `${step} failed (${text.slice(0, 300)}).`;
  return new AppError('data_damaged', `Hearth could not start on ${dataDir}: ${what}${restoreAdvice(dataDir)}`, refusalDetails(dataDir));
}
