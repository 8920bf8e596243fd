// Telling a new data folder from a damaged one before PGlite opens it. PGlite
// runs initdb whenever PG_VERSION is missing — over whatever else is there —
// so a folder that lost that one file would silently start empty. We refuse
// instead, and say where the newest backup is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';

/** The size of Postgres' control file: a shorter or missing one cannot be a database. */
const PG_CONTROL_SIZE = 8192;

/** `<dataDir>/backups/`'s newest entry, if any (what a restore would start from). */
export function newestBackup(dataDir: string): string | null {
  const dir = join(dataDir, 'backups');
  if (!existsSync(dir)) return null;
  let best: { path: string; mtime: number } | null = null;
  for (const name of readdirSync(dir)) {
    // The archives only: not their manifests (.json) nor a backup still being written (.partial).
    if (name.startsWith('.') || name.endsWith('.json') || name.endsWith('.partial')) continue;
    const path = join(dir, name);
    const mtime = statSync(path).mtimeMs;
    if (!best || mtime > best.mtime) best = { path, mtime };
  }
  return best?.path ?? null;
}

/** What to tell a person whose data cannot be opened: nothing was changed, and where to go from here. */
export function restoreAdvice(dataDir: string): string {
  const backup = newestBackup(dataDir);
  return backup
    ? ` Nothing was changed or deleted. The newest backup is ${backup}; restore it (README, "Your data") or keep the folder for recovery.`
    : ` Nothing was changed or deleted. There is no backup in ${join(dataDir, 'backups')}; keep the folder as it is for recovery (README, "Your data").`;
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
 * Throws data_damaged when `pgdata` holds files but not a database PGlite
 * can open as is. A missing or empty `pgdata` is a new folder: fine.
 */
export function checkDataFolder(dataDir: string): void {
  const pgdata = join(dataDir, 'pgdata');
  if (!existsSync(pgdata)) return;
  if (!statSync(pgdata).isDirectory()) {
    throw new AppError('data_damaged', `The database folder ${pgdata} is not a folder.${restoreAdvice(dataDir)}`);
  }
  if (readdirSync(pgdata).length === 0) return;
  const problem = problemOf(pgdata);
  if (problem) {
    throw new AppError(
      'data_damaged',
      `The database in ${pgdata} is damaged: ${problem}. Hearth will not create a new database over it.${restoreAdvice(dataDir)}`,
    );
  }
}
