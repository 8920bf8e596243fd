// createCore's second step: the context every handler sees, and the work that
// runs beside the calls (jobs, watched folders, the trash purge, live updates
// between Hearths on one server), started in the order start-up needs.
import type { CoreContext, SecretStore } from '../context';
import type { ServerDb } from '../db/server';
import { describeDamage } from '../db/damage';
import type { EventBus } from '../events';
import { DEFAULT_LIVE_OPTIONS, LiveUpdates } from '../live/relay';
import { removeUnfinishedImports } from '../portable/unfinished';
import { DEFAULT_JOB_RUNNER_OPTIONS, JobRunner } from '../jobs/runner';
import type { QueueDefs } from '../jobs/types';
import { TrashPurgeSchedule } from '../trash/purge';
import { DEFAULT_WATCH_OPTIONS, FolderWatchService } from '../knowledge/watch/service';
import { DocumentParser } from '../parse/parser';
import { DEFAULT_EMBEDDING_SERVICE_OPTIONS, EmbeddingService } from '../providers/embeddings/service';
import { applyEmbeddingSettings } from '../settings/apply';
import { adoptUnboundKeys } from '../settings/keys';
import { readSettings } from '../settings/store';
import { McpDoorState } from '../mcp/door';
import { ensureMainPersona } from '../server-switch/copy';
import { sweepIncognito } from '../conversations/incognito';
import { queueDefs } from './queues';
import type { OpenedData } from './open-data';
import type { CoreOptions } from './options';

/** The running core's parts that stop in order when it closes. */
export interface Services {
  ctx: CoreContext;
  /** Stops the background work, watchers first: no file is read into a database about to close. */
  stopWork(): Promise<void>;
  /** Then the parser, the embedder and the database (not the lock: the caller releases it last). */
  closeDatabase(): Promise<void>;
}

const TEXT_ONLY_NOTICE =
  'Text-only: the PostgreSQL server has no pgvector, so Hearth stores no vectors and recall ranks by text alone. ' +
  'Install the pgvector extension on the server to search by meaning too.';

/** Without pgvector there is nothing for the embeddings queue to do (docs/server-mode.md). */
function servedQueues(queues: QueueDefs, textOnly: boolean): QueueDefs {
  if (!textOnly) return queues;
  const { embeddings: _none, ...rest } = queues;
  return rest;
}

/** Repairs a stop may have left behind, before any job runs (docs/export.md, docs/privacy.md). */
async function tidyAfterStop(ctx: CoreContext, onServer: boolean): Promise<void> {
  // Before the job runner: an import cut off by a stop leaves a hidden persona, never a half-visible one (docs/export.md).
  const unfinished = await removeUnfinishedImports(ctx.db);
  // A copy into this server that was cut off may have taken "main" with it (server-switch/copy.ts).
  if (unfinished.length) await ensureMainPersona(ctx.db);
  if (unfinished.length) {
    ctx.notices.push(`An import that had not finished when Hearth stopped was removed (${unfinished.length === 1 ? 'one persona' : `${unfinished.length} personas`}); nothing else changed. Import the file again.`);
  }
  // An incognito chat a stop left open is deleted (docs/privacy.md).
  await sweepIncognito(ctx.db, onServer);
}

/** What the stored settings decide before anything else reads or writes. */
async function applyStoredSettings(ctx: CoreContext): Promise<void> {
  const settings = await readSettings(ctx);
  // Opened without it (the setting lives in the database); applies from the first commit after migrations.
  if (settings.durableCommits) await ctx.db.local?.setDurableCommits(true);
  await adoptUnboundKeys(ctx.secrets, settings);
}

/**
 * Builds the context on the opened database and starts the background work.
 * A failure stops what started, closes the database and names a damaged table
 * in words; the caller still releases the lock.
 */
export async function startServices(
  options: CoreOptions,
  opened: OpenedData,
  parts: { dataDir: string | null; secrets: SecretStore; notices: string[]; events: EventBus; isClosed: () => boolean },
): Promise<Services> {
  const { db, server, backups } = opened;
  const textOnly = !db.features.vector;
  if (textOnly) parts.notices.push(TEXT_ONLY_NOTICE);
  const embedder = new EmbeddingService({ ...DEFAULT_EMBEDDING_SERVICE_OPTIONS, ...options.embeddings, ...(textOnly ? { textOnly } : {}) });
  const parser = new DocumentParser();
  let runner: JobRunner | null = null;
  let watches!: FolderWatchService;
  let live: LiveUpdates | null = null;
  const ctx: CoreContext = {
    db,
    events: parts.events,
    dataDir: parts.dataDir,
    secrets: parts.secrets,
    embedder,
    parser,
    queues: queueDefs,
    wakeJobs: () => runner?.wake(),
    now: options.now ?? (() => new Date()),
    mcpDoor: new McpDoorState(),
    notices: parts.notices,
    backups,
    database: opened.database,
    watcher: { sync: () => watches.sync(), status: (persona, folder) => watches.status(persona, folder) },
    watchDirs: options.watchDirs ?? null,
  };
  watches = new FolderWatchService(ctx, { ...DEFAULT_WATCH_OPTIONS, ...options.watch });
  if (backups && options.dailyBackups !== false) backups.startSchedule();
  const trashPurge = new TrashPurgeSchedule(ctx);
  const stopWork = async () => {
    await watches.close();
    await trashPurge.stop();
    // Jobs stop (and record their state) before the database closes: no write after close.
    await runner?.stop();
    // After the runner, whose last changes (jobs put back) other Hearths' pages should still hear of.
    await live?.stop();
    // A backup or restore under way finishes first: it is never cut off by a clean close.
    await backups?.stop();
  };
  const closeEngines = async () => {
    await parser.close();
    await embedder.close();
  };
  const closeDatabase = async () => {
    await closeEngines();
    await db.close();
  };
  try {
    await applyStoredSettings(ctx);
    await tidyAfterStop(ctx, server !== null);
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
      if (!parts.isClosed()) console.warn('Hearth: watched folders could not start:', e instanceof Error ? e.message : e);
    });
  } catch (e) {
    // A damaged page met while reading settings or jobs: name the table instead of a stack.
    const damage = parts.dataDir && db.local ? await describeDamage(db, e, parts.dataDir, 'start') : null;
    await stopWork();
    await closeEngines();
    await db.close().catch(() => undefined);
    throw damage ?? e;
  }
  return { ctx, stopWork, closeDatabase };
}
