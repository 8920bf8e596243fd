// What createCore takes and gives (src/core/index.ts re-exports both).
import type { CallMeta } from '../../shared/actor';
import type { ArgsOf, Envelope, Method, ResultOf } from '../../shared/api';
import type { CoreContext, SecretStore } from '../context';
import type { LockRole } from '../db/lock';
import type { IdleCheckpointOptions } from '../db/idle-checkpoint';
import type { IdleVacuumOptions } from '../db/idle-vacuum';
import type { EventBus } from '../events';
import type { JobRunnerOptions } from '../jobs/runner';
import type { QueueDefs } from '../jobs/types';
import type { WatchServiceOptions } from '../knowledge/watch/service';
import type { UploadSink } from '../knowledge/upload';
import type { LiveOptions } from '../live/relay';
import type { McpDoors } from '../mcp/doors';
import type { Handlers } from '../method';
import type { EmbeddingServiceOptions } from '../providers/embeddings/service';

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
  /** knowledge.ingest for a door that streams the upload to disk first (the browser host). */
  uploads: UploadSink;
  /** personas.import for a door that streams the upload to disk first. */
  imports: UploadSink;
  /** MCP on this core for the doors: HTTP sessions, an in-process server, the endpoint file, the desktop switch. */
  mcp: McpDoors;
}
