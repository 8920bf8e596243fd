// createCore's first step: the data folder made private, its secrets, the
// database chosen (a start option, the server saved in Settings, or this
// folder's PGlite), owned (the lock), restored if asked, opened and migrated.
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { SecretStore } from '../context';
import { type Db, PgliteDb } from '../db/client';
import { ServerDb } from '../db/server';
import type { UrlSource } from '../db/server-url';
import { checkDataDirItself, checkDataFolder, holdsFiles, startFailure } from '../db/data-folder';
import { seedFromTemplate } from '../db/pgdata-template';
import { releaseWarmDatabase } from '../db/warm-start';
import { describeDamage } from '../db/damage';
import { acquireDirLock, type DirLock } from '../db/lock';
import { findMigrationsDir, migrate, readMigrations } from '../db/migrate';
import type { EventBus } from '../events';
import { BackupService, recoverBackups, restoreAtStart } from '../backups/service';
import { APP_VERSION } from '../info/handlers';
import { raiseNotice } from '../info/notices';
import { stampMainCreatedNow } from '../personas/store';
import { makeDataDirPrivate } from '../private-files';
import { FileSecretStore, MemorySecretStore } from '../secrets/file-store';
import { type DatabaseChoice, describeSaved, readSavedUrl } from '../server-switch/saved';
import { readSettings } from '../settings/store';
import { DEFAULT_SETTINGS } from '../settings/types';
import type { CoreOptions } from './options';

/** What the first step opened; everything after it closes `db` and releases `lock` on the way out. */
export interface OpenedData {
  db: Db;
  /** The PostgreSQL server in use, else null (this folder's PGlite). */
  server: ServerDb | null;
  lock: DirLock | null;
  backups: BackupService | null;
  database: DatabaseChoice;
}

/** What a restore cut short by a kill became at this start, in the person's words. */
const RESTORE_NOTICES = {
  finished:
    'A restore was interrupted when Hearth last stopped. It had already written everything it needed, so it was finished at this start: your data is the backup you chose to restore.',
  discarded:
    'A restore was interrupted when Hearth last stopped, before it replaced anything. It was discarded at this start: your data is as it was before that restore. You can start it again from Settings → Data.',
} as const;

/** A file in its place or another user's folder is refused in words before anything touches it; then the folder is made private. */
export function prepareDataDir(dataDir: string): void {
  checkDataDirItself(dataDir);
  // Private before anything is written; folders from older versions are tightened here.
  try {
    makeDataDirPrivate(dataDir);
  } catch (e) {
    throw startFailure(e, dataDir, 'prepare its data folder');
  }
}

/** The door's own store, else the data folder's file (its damage is a notice), else memory. */
export function openSecrets(options: CoreOptions, dataDir: string | null, notices: string[], events: EventBus): SecretStore {
  if (options.secrets) return options.secrets;
  if (!dataDir) return new MemorySecretStore();
  return new FileSecretStore(dataDir, (message) => {
    console.warn(message);
    raiseNotice({ notices, events }, message);
  });
}

function backupService(db: PgliteDb, dataDir: string, now: (() => Date) | undefined): BackupService {
  return new BackupService({
    db,
    dataDir,
    appVersion: APP_VERSION,
    now: now ?? (() => new Date()),
    // Read at each prune: a change in Settings applies from the next backup. Before migrations ran, the default.
    keep: () => readSettings({ db }).then((s) => s.backupsKeep, () => DEFAULT_SETTINGS.backupsKeep),
  });
}

/**
 * The saved server could not be used at start: this computer's data opens
 * instead, and the person is told so (docs/server-mode.md: a start that fails
 * on a server named by a start option stops; one saved in Settings falls back).
 */
function savedFailedNotice(reason: string): string {
  return `${reason} Hearth opened this computer's data instead: what you change now stays on this computer. Settings → Data lets you test the server again or stop using it.`;
}

async function openServer(url: string, migrationsDir: string | undefined, source: UrlSource): Promise<ServerDb> {
  const server = await ServerDb.open(url, { source });
  try {
    // The server's own backups apply (docs/server-mode.md): none before migrating.
    await migrate(server, readMigrations(migrationsDir ?? findMigrationsDir()));
    await server.refreshFeatures();
    return server;
  } catch (e) {
    await server.close().catch(() => undefined);
    throw e;
  }
}

/** The server named at start, else the one saved in Settings (falling back to this computer's data with a notice), else none. */
async function chooseServer(
  options: CoreOptions,
  secrets: SecretStore,
  notices: string[],
): Promise<{ server: ServerDb | null; database: DatabaseChoice }> {
  const startOption = options.databaseUrl?.trim() || null;
  const database: DatabaseChoice = { source: startOption ? 'start-option' : null, savedFailed: null };
  if (startOption) {
    // Several Hearths share one server, so no single-owner lock: the folder only holds this device's secrets.
    if (options.loadFrom) throw new AppError('invalid_args', 'loadFrom applies to the local database only, not to a server.');
    return { server: await openServer(startOption, options.migrationsDir, 'start-option'), database };
  }
  const saved = options.loadFrom ? null : await readSavedUrl(secrets);
  if (!saved) return { server: null, database };
  try {
    const server = await openServer(saved, options.migrationsDir, 'settings');
    database.source = 'settings';
    return { server, database };
  } catch (e) {
    database.savedFailed = e instanceof AppError ? e.message : `Hearth could not use the PostgreSQL server ${describeSaved(saved)}: ${(e as Error).message}.`;
    notices.push(savedFailedNotice(database.savedFailed));
    return { server: null, database };
  }
}

/**
 * Owns the folder (its lock), finishes or undoes a restore a kill cut short,
 * restores the backup the person chose at the door, and checks the files
 * before PGlite sees them. Returns whether the database was seeded from the
 * template. `onLock` receives the lock as soon as it is taken, so a failure
 * after it still releases it.
 */
async function ownDataFolder(options: CoreOptions, dataDir: string, notices: string[], onLock: (lock: DirLock) => void): Promise<boolean> {
  try {
    onLock(acquireDirLock(dataDir, options.lockRole));
  } catch (e) {
    throw startFailure(e, dataDir, 'take ownership of its data folder');
  }
  // Owned now: a restore cut short by a kill is finished (or undone) before anything opens.
  const restore = await recoverBackups(dataDir);
  if (restore !== 'none') notices.push(RESTORE_NOTICES[restore]);
  if (options.restoreBackup) {
    const { restored, setAside } = await restoreAtStart(dataDir, options.restoreBackup, (options.now ?? (() => new Date()))());
    notices.push(
      `As you chose at start, Hearth restored the backup ${restored.id} (taken ${restored.createdAt}, ${restored.counts.memories} memories).` +
        (setAside ? ` The damaged database was kept, unchanged, as ${setAside}; delete it yourself once you no longer need it.` : ''),
    );
  }
  // Before PGlite sees the folder: it would run initdb over a damaged one, or start empty beside backups.
  if (!options.loadFrom) checkDataFolder(dataDir, { startEmpty: options.startEmpty === true });
  return !options.loadFrom && options.pgdataTemplate ? seedFromTemplate(join(dataDir, 'pgdata'), options.pgdataTemplate) : false;
}

/** This folder's PGlite (or memory's), opened and migrated; an existing database is backed up before its schema changes. */
async function openLocal(
  options: CoreOptions,
  dataDir: string | null,
  seeded: boolean,
  onDb: (db: PgliteDb) => void,
): Promise<{ db: PgliteDb; backups: BackupService | null }> {
  const hadDatabase = dataDir !== null && holdsFiles(join(dataDir, 'pgdata'));
  const db = await PgliteDb.open(dataDir ? join(dataDir, 'pgdata') : null, options.loadFrom).catch((e: unknown) => {
    // The files looked whole (checkDataFolder), yet PGlite could not open them: still words, never a bare stack.
    throw dataDir && hadDatabase ? startFailure(e, dataDir, 'open its database') : e;
  });
  onDb(db);
  const backups = dataDir ? backupService(db, dataDir, options.now) : null;
  await migrate(db, readMigrations(options.migrationsDir ?? findMigrationsDir()), {
    beforeApplying: backups ? () => backups.create('before-migration').then(() => undefined) : undefined,
  });
  // The template's first persona was made when the template was; this folder's is made now.
  if (seeded) await stampMainCreatedNow(db);
  return { db, backups };
}

/** The database this start uses, owned and migrated; on failure nothing stays open or locked, and damage is named in words. */
export async function openData(options: CoreOptions, dataDir: string | null, secrets: SecretStore, notices: string[]): Promise<OpenedData> {
  let lock: DirLock | null = null;
  let db: Db | null = null;
  try {
    const { server, database } = await chooseServer(options, secrets, notices);
    if (server) {
      releaseWarmDatabase();
      return { db: server, server, lock: null, backups: null, database };
    }
    const seeded = dataDir ? await ownDataFolder(options, dataDir, notices, (l) => (lock = l)) : false;
    const local = await openLocal(options, dataDir, seeded, (d) => (db = d));
    return { db: local.db, server: null, lock, backups: local.backups, database };
  } catch (e) {
    const opened = db as Db | null;
    const damage = opened?.local && dataDir ? await describeDamage(opened, e, dataDir, 'start') : null;
    await opened?.close().catch(() => undefined);
    (lock as DirLock | null)?.release();
    throw damage ?? e;
  }
}
