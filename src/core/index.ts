// The composition root: the only module that knows every domain. It opens the
// database, builds the context (src/core/context.ts), and wires the handler
// table (app/handlers.ts) and the queues (app/queues.ts) to it. Domains never
// import this file or app/; they see each other and the context's interfaces.
import { join, resolve } from 'node:path';
import type { CallMeta } from '../shared/actor';
import type { ArgsOf, Envelope, Method, ResultOf } from '../shared/api';
import { AppError } from '../shared/errors';
import { handlers } from './app/handlers';
import { queueDefs } from './app/queues';
import type { CoreContext, SecretStore } from './context';
import { type Db, PgliteDb } from './db/client';
import { ServerDb } from './db/server';
import type { UrlSource } from './db/server-url';
import { checkDataDirItself, checkDataFolder, holdsFiles, startFailure } from './db/data-folder';
import { seedFromTemplate } from './db/pgdata-template';
import { describeDamage } from './db/damage';
import { acquireDirLock, type DirLock, type LockRole } from './db/lock';
import { findMigrationsDir, migrate, readMigrations } from './db/migrate';
import { dispatch } from './dispatch';
import { EventBus } from './events';
import { DEFAULT_LIVE_OPTIONS, LiveUpdates, type LiveOptions } from './live/relay';
import { removeUnfinishedImports } from './portable/unfinished';
import { DEFAULT_JOB_RUNNER_OPTIONS, JobRunner, type JobRunnerOptions } from './jobs/runner';
import type { QueueDefs } from './jobs/types';
import { TrashPurgeSchedule } from './trash/purge';
import { DEFAULT_WATCH_OPTIONS, FolderWatchService, type WatchServiceOptions } from './knowledge/watch/service';
import type { Handlers } from './method';
import { DocumentParser } from './parse/parser';
import {
  DEFAULT_EMBEDDING_SERVICE_OPTIONS,
  EmbeddingService,
  type EmbeddingServiceOptions,
} from './providers/embeddings/service';
import { FileSecretStore, MemorySecretStore } from './secrets/file-store';
import { applyEmbeddingSettings } from './settings/apply';
import { adoptUnboundKeys } from './settings/keys';
import { readSettings } from './settings/store';
import { DEFAULT_SETTINGS } from './settings/types';
import { McpDoorState } from './mcp/door';
import { type DatabaseChoice, describeSaved, readSavedUrl } from './server-switch/saved';
import { ensureMainPersona } from './server-switch/copy';
import { makeDataDirPrivate } from './private-files';
import { BackupService, recoverBackups, restoreAtStart } from './backups/service';
import { APP_VERSION } from './info/handlers';
import { raiseNotice } from './info/notices';
import { checkFirstReads, findLostRows, lostRowsNotice } from './db/startup-check';
import { DEFAULT_IDLE_CHECKPOINT, IdleCheckpointer, type IdleCheckpointOptions } from './db/idle-checkpoint';
import { DEFAULT_IDLE_VACUUM, IdleVacuum, type IdleVacuumOptions } from './db/idle-vacuum';
import { sweepIncognito } from './conversations/incognito';

export interface CoreOptions {
  /** Where the database and secrets live; null keeps everything in memory. */
  dataDir: string | null;
  /**
   * A PostgreSQL server to keep the data in instead of the data folder's PGlite
   * (HEARTH_DATABASE_URL / --database-url; docs/server-mode.md). The data folder
   * still holds the secrets; several Hearths may share one server.
   */
  databaseUrl?: string;
  migrationsDir?: string;
  secrets?: SecretStore;
  /** A gzip tarball of a prepared data directory to start from (PGlite loadDataDir). */
  loadFrom?: Uint8Array;
  /** A migrated, empty database to copy into a new data folder instead of initdb (db/pgdata-template.ts); null: none. */
  pgdataTemplate?: string | null;
  now?: () => Date;
  /** The job runner: retry backoff (production: seconds; tests: milliseconds), polling, close grace. */
  jobs?: Partial<JobRunnerOptions>;
  /** The queues the runner serves; default: every registered queue (src/core/app/queues.ts). */
  queues?: QueueDefs;
  /** Which door opens the folder, written in its lock so another door starting meanwhile knows what to wait for (docs/mcp.md). */
  lockRole?: LockRole;
  /** Start-up notices the door collected before the core existed (e.g. its own secret store's); app.info shows them. */
  notices?: string[];
  /** Timeouts of the embedding provider (background requests, recall queries). */
  embeddings?: Partial<EmbeddingServiceOptions>;
  /** A backup each day while running (default true; a data folder only). Short-lived test cores turn it off. */
  dailyBackups?: boolean;
  /** When the first look for trash to purge runs after start (default a minute; then hourly). */
  trashPurgeFirstCheckMs?: number;
  /**
   * How long after start the background damage check runs (db/startup-check.ts; default 15 s, once the
   * window has loaded; a data folder only). null: not at all.
   */
  startupCheckDelayMs?: number | null;
  /** When a quiet database takes its checkpoint (db/idle-checkpoint.ts; a data folder only). */
  idleCheckpoint?: Partial<IdleCheckpointOptions>;
  /** When a quiet database vacuums a changed table (db/idle-vacuum.ts; a data folder only). */
  idleVacuum?: Partial<IdleVacuumOptions>;
  /** Live updates between Hearths on one server (live/relay.ts): batching and reconnect back-off. */
  live?: Partial<LiveOptions>;
  /**
   * The folders a page may watch inside (the browser host's HEARTH_WATCH_DIRS / --watch-dir; empty: none).
   * Absent or null: the door decides (the desktop app lets only a folder the person picked through).
   */
  watchDirs?: readonly string[] | null;
  /** Watched folders: the quiet time before a changed file is read (docs/watched-folders.md). */
  watch?: Partial<WatchServiceOptions>;
  /**
   * The person's answer to a start-up refusal (data_missing / data_damaged), given at the door:
   * restore this backup ('newest': the newest verified one) before opening; a damaged database is set aside, not deleted.
   */
  restoreBackup?: string;
  /** The person's explicit choice to start with no data although backups lie beside a missing or empty database. */
  startEmpty?: boolean;
}

export interface Core {
  handlers: Handlers;
  events: EventBus;
  ctx: CoreContext;
  /** `meta.actor`: who calls (default 'user'); each door passes its own. */
  dispatch(method: string, args: unknown, meta?: CallMeta): Promise<Envelope<unknown>>;
  /** Typed convenience for scripts and tests: unwraps the envelope, throws AppError. */
  call<M extends Method>(method: M, args: ArgsOf<M>, meta?: CallMeta): Promise<ResultOf<M>>;
  close(): Promise<void>;
  /** Settles when the check after start has run (at once when there is none, or once the core closes first). */
  startupChecked: Promise<void>;
}

/** What a restore cut short by a kill became at this start, in the person's words. */
const RESTORE_NOTICES = {
  finished:
    'A restore was interrupted when Hearth last stopped. It had already written everything it needed, so it was finished at this start: your data is the backup you chose to restore.',
  discarded:
    'A restore was interrupted when Hearth last stopped, before it replaced anything. It was discarded at this start: your data is as it was before that restore. You can start it again from Settings → Data.',
} as const;

const TEXT_ONLY_NOTICE =
  'Text-only: the PostgreSQL server has no pgvector, so Hearth stores no vectors and recall ranks by text alone. ' +
  'Install the pgvector extension on the server to search by meaning too.';

/** Without pgvector there is nothing for the embeddings queue to do (docs/server-mode.md). */
function servedQueues(queues: QueueDefs, textOnly: boolean): QueueDefs {
  if (!textOnly) return queues;
  const { embeddings: _none, ...rest } = queues;
  return rest;
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

export async function createCore(options: CoreOptions): Promise<Core> {
  const dataDir = options.dataDir ? resolve(options.dataDir) : null;
  let lock: DirLock | null = null;
  let db: Db | null = null;
  let server: ServerDb | null = null;
  let backups: BackupService | null = null;
  const notices: string[] = options.notices ?? [];
  const events = new EventBus();
  let seeded = false;
  if (dataDir) {
    // A file in its place or another user's folder is refused in words before anything touches it.
    checkDataDirItself(dataDir);
    // Private before anything is written; folders from older versions are tightened here.
    try {
      makeDataDirPrivate(dataDir);
    } catch (e) {
      throw startFailure(e, dataDir, 'prepare its data folder');
    }
  }
  // Before the database: the server chosen in Settings is kept with the secrets (server-switch/saved.ts).
  const secrets =
    options.secrets ??
    (dataDir
      ? new FileSecretStore(dataDir, (message) => {
          console.warn(message);
          raiseNotice({ notices, events }, message);
        })
      : new MemorySecretStore());
  const startOption = options.databaseUrl?.trim() || null;
  const saved = startOption || options.loadFrom ? null : await readSavedUrl(secrets);
  const database: DatabaseChoice = { source: startOption ? 'start-option' : null, savedFailed: null };
  try {
    if (startOption) {
      // Several Hearths share one server, so no single-owner lock: the folder only holds this device's secrets.
      if (options.loadFrom) throw new AppError('invalid_args', 'loadFrom applies to the local database only, not to a server.');
      server = await openServer(startOption, options.migrationsDir, 'start-option');
    } else if (saved) {
      try {
        server = await openServer(saved, options.migrationsDir, 'settings');
        database.source = 'settings';
      } catch (e) {
        database.savedFailed = e instanceof AppError ? e.message : `Hearth could not use the PostgreSQL server ${describeSaved(saved)}: ${(e as Error).message}.`;
        notices.push(savedFailedNotice(database.savedFailed));
      }
    }
    if (server) {
      db = server;
    } else {
      if (dataDir) {
        try {
          lock = acquireDirLock(dataDir, options.lockRole);
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
        if (!options.loadFrom && options.pgdataTemplate) seeded = await seedFromTemplate(join(dataDir, 'pgdata'), options.pgdataTemplate);
      }
      const hadDatabase = dataDir !== null && holdsFiles(join(dataDir, 'pgdata'));
      const local = await PgliteDb.open(dataDir ? join(dataDir, 'pgdata') : null, options.loadFrom).catch((e: unknown) => {
        // The files looked whole (checkDataFolder), yet PGlite could not open them: still words, never a bare stack.
        throw dataDir && hadDatabase ? startFailure(e, dataDir, 'open its database') : e;
      });
      db = local;
      backups = dataDir ? backupService(local, dataDir, options.now) : null;
      const service = backups;
      await migrate(db, readMigrations(options.migrationsDir ?? findMigrationsDir()), {
        // An existing database is backed up before its schema changes.
        beforeApplying: service ? () => service.create('before-migration').then(() => undefined) : undefined,
      });
      // The template's first persona was made when the template was; this folder's is made now.
      if (seeded) await db.query(`UPDATE personas SET created_at = now() WHERE id = 'main'`);
    }
  } catch (e) {
    const damage = db?.local && dataDir ? await describeDamage(db, e, dataDir, 'start') : null;
    await db?.close().catch(() => undefined);
    lock?.release();
    throw damage ?? e;
  }

  const textOnly = !db.features.vector;
  if (textOnly) notices.push(TEXT_ONLY_NOTICE);
  const embedder = new EmbeddingService({ ...DEFAULT_EMBEDDING_SERVICE_OPTIONS, ...options.embeddings, ...(textOnly ? { textOnly } : {}) });
  const parser = new DocumentParser();
  let runner: JobRunner | null = null;
  let trashPurge!: TrashPurgeSchedule;
  let watches!: FolderWatchService;
  let live: LiveUpdates | null = null;
  const ctx: CoreContext = {
    db,
    events,
    dataDir,
    secrets,
    embedder,
    parser,
    queues: queueDefs,
    wakeJobs: () => runner?.wake(),
    now: options.now ?? (() => new Date()),
    mcpDoor: new McpDoorState(),
    notices,
    backups,
    database,
    watcher: { sync: () => watches.sync(), status: (persona, folder) => watches.status(persona, folder) },
    watchDirs: options.watchDirs ?? null,
  };
  watches = new FolderWatchService(ctx, { ...DEFAULT_WATCH_OPTIONS, ...options.watch });
  if (backups && options.dailyBackups !== false) backups.startSchedule();
  trashPurge = new TrashPurgeSchedule(ctx);
  let closed = false;
  try {
    const settings = await readSettings(ctx);
    // Opened without it (the setting lives in the database); applies from the first commit after migrations.
    if (settings.durableCommits) await db.local?.setDurableCommits(true);
    await adoptUnboundKeys(ctx.secrets, settings);
    // Before the job runner: an import cut off by a stop leaves a hidden persona, never a half-visible one (docs/export.md).
    const unfinished = await removeUnfinishedImports(db);
    // A copy into this server that was cut off may have taken "main" with it (server-switch/copy.ts).
    if (unfinished.length) await ensureMainPersona(db);
    if (unfinished.length) {
      notices.push(`An import that had not finished when Hearth stopped was removed (${unfinished.length === 1 ? 'one persona' : `${unfinished.length} personas`}); nothing else changed. Import the file again.`);
    }
    // An incognito chat a stop left open is deleted (docs/privacy.md).
    await sweepIncognito(db, server !== null);
    // At start-up the provider only takes the stored settings; a backfill is the switch's job (or the user's).
    await applyEmbeddingSettings(ctx, { backfill: false });
    // Before the runner: the jobs it takes back at start reach the other Hearths' pages too.
    if (server) {
      live = new LiveUpdates(ctx, server, { ...DEFAULT_LIVE_OPTIONS, ...options.live });
      await live.start();
    }
    runner = new JobRunner(ctx, servedQueues(options.queues ?? queueDefs, textOnly), { ...DEFAULT_JOB_RUNNER_OPTIONS, ...options.jobs });
    await runner.start();
    // The daily trash purge (docs/trash.md); every Hearth on a server may look, the job queue runs one purge.
    trashPurge.start(options.trashPurgeFirstCheckMs ?? 60_000);
    // Each stored watch starts and reconciles what changed while Hearth was closed, in the background.
    void watches.sync().catch((e: unknown) => {
      if (!closed) console.warn('Hearth: watched folders could not start:', e instanceof Error ? e.message : e);
    });
  } catch (e) {
    // A damaged page met while reading settings or jobs: name the table instead of a stack.
    const damage = dataDir && db.local ? await describeDamage(db, e, dataDir, 'start') : null;
    await watches.close();
    await trashPurge.stop();
    await runner?.stop();
    await live?.stop();
    await backups?.stop();
    await parser.close();
    await embedder.close();
    await db.close().catch(() => undefined);
    lock?.release();
    throw damage ?? e;
  }

  // Before the first call is answered: damage in the tables the first view reads becomes a notice it shows
  // (docs/durability.md, "Damage at start"). A server's integrity is the server's. Every call waits for it,
  // while the page's own files are already being served (docs/startup.md).
  const firstReadsChecked: Promise<void> =
    dataDir && db.local
      ? checkFirstReads(db, dataDir).then(
          (found) => {
            for (const notice of found) raiseNotice(ctx, notice);
          },
          (e: unknown) => {
            if (!closed) console.warn('Hearth: the check at start could not run:', e instanceof Error ? e.message : e);
          },
        )
      : Promise.resolve();

  // Keeps the checkpoint a backup needs small: taken while nobody waits (docs/durability.md).
  // A server has a checkpointer of its own.
  const checkpointer = dataDir && db.local
    ? new IdleCheckpointer(db.local, { ...DEFAULT_IDLE_CHECKPOINT, ...options.idleCheckpoint }, (e) => {
        if (!closed) console.warn('Hearth: an idle checkpoint failed:', e instanceof Error ? e.message : e);
      })
    : null;
  checkpointer?.start();
  // PGlite has no autovacuum (docs/durability.md, "Idle vacuum"); a server vacuums itself.
  const vacuum = dataDir && db.local
    ? new IdleVacuum(db.local, { ...DEFAULT_IDLE_VACUUM, ...options.idleVacuum }, (e) => {
        if (!closed) console.warn('Hearth: an idle vacuum failed:', e instanceof Error ? e.message : e);
      })
    : null;
  vacuum?.start();

  // The check after start: in the background, once, so start-up itself is not slowed.
  let checkTimer: NodeJS.Timeout | null = null;
  let settleCheck: () => void = () => undefined;
  const startupChecked = new Promise<void>((resolve) => (settleCheck = resolve));
  const delay = options.startupCheckDelayMs === undefined ? 15_000 : options.startupCheckDelayMs;
  // The check reads this folder's PGlite files; a server's integrity is the server's.
  if (dataDir && db.local && delay !== null) {
    checkTimer = setTimeout(() => {
      checkTimer = null;
      findLostRows(db)
        .then((problems) => {
          if (problems.length && !closed) raiseNotice(ctx, lostRowsNotice(problems));
        })
        .catch((e: unknown) => {
          if (!closed) console.warn('Hearth: the check after start could not run:', e instanceof Error ? e.message : e);
        })
        .finally(settleCheck);
    }, delay);
    checkTimer.unref();
  } else {
    settleCheck();
  }

  return {
    handlers,
    events,
    ctx,
    startupChecked,
    dispatch: async (method, args, meta) => {
      await firstReadsChecked;
      return dispatch(handlers, ctx, method, args, meta);
    },
    async call(method, args, meta) {
      await firstReadsChecked;
      const res = await dispatch(handlers, ctx, method, args, meta);
      if (!res.ok) throw AppError.from(res.error);
      return res.data as ResultOf<typeof method>;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (checkTimer) {
        clearTimeout(checkTimer);
        settleCheck();
      }
      // A check under way finishes before the database closes.
      await firstReadsChecked;
      await startupChecked;
      try {
        // Watchers first: no file is read into a database about to close.
        await watches.close();
        await trashPurge.stop();
        // Jobs stop (and record their state) before the database closes: no write after close.
        await runner?.stop();
        // After the runner, whose last changes (jobs put back) other Hearths' pages should still hear of.
        await live?.stop();
        // A backup or restore under way finishes first: it is never cut off by a clean close.
        await backups?.stop();
        await checkpointer?.stop();
        await vacuum?.stop();
        await parser.close();
        await embedder.close();
        await ctx.db.close();
      } finally {
        lock?.release();
      }
    },
  };
}
