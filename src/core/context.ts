import type { JobQueue, McpHttpState } from '../shared/api';
import type { BackupInfo } from '../shared/types';
import type { Db } from './db/client';
import type { EventBus } from './events';
import type { ParsedDocument, ParseOptions } from './parse/types';
import type { EmbeddingConfig } from './providers/embeddings/config';
import type { EmbeddingProvider } from './providers/embeddings/types';
import type { ContentScope } from './providers/locality';
import type { SecretStore } from './secrets/store';

// Interfaces only: every domain depends on these, and only the composition
// root (src/core/app/) knows which classes implement them.

/** Where secrets (API keys) live: Electron safeStorage, or a 0600 file for the browser host (secrets/store.ts). */
export type { SecretStore };

/** The one door to embeddings (implemented by src/core/providers/embeddings/service.ts). */
export interface Embedder {
  /** The tag of the current model: only vectors with this tag count as current (docs/ranking.md). */
  model(): string;
  /**
   * The provider in effect, for background work; throws `cancelled` once the core is closing,
   * and `local_only` when `scope` is a local-only persona and the provider is not on this computer.
   */
  current(scope: ContentScope): EmbeddingProvider;
  /**
   * Embeds a recall query with the current provider (short timeout). Resolves
   * null when that is not possible (a local-only persona's text and a provider
   * off this computer included: nothing is sent), so recall falls back to text-only.
   */
  embedQuery(text: string, scope: ContentScope, signal?: AbortSignal): Promise<Float32Array | null>;
  /** Switches provider when its settings or key changed; tells whether the model (the vector tag) did. */
  configure(config: EmbeddingConfig, apiKey: string | null): Promise<{ changed: boolean; modelChanged: boolean }>;
}

/** Parses ingested files off the core thread (implemented by src/core/parse/parser.ts). */
export interface Parser {
  parse(path: string, options: ParseOptions): Promise<ParsedDocument>;
  /** True while a worker thread is alive (kept between files, ended when idle). */
  readonly hasWorker: boolean;
}

/** How an MCP host starts this install's stdio server: absolute paths (hosts run it without a shell). */
export interface McpLauncher {
  command: string;
  /** Arguments before `--persona …`. */
  args: string[];
  env: Record<string, string>;
}

/**
 * What the door that owns the core tells it about how other AI tools reach
 * this process over MCP (implemented by src/core/mcp/door.ts).
 */
export interface McpDoor {
  launcher: McpLauncher | null;
  http: McpHttpState | null;
  /** The desktop app registers how its listener starts and stops. */
  onSwitch(switcher: (enabled: boolean) => Promise<McpHttpState>): void;
  /** null when this process has no switchable listener. */
  switchListener(enabled: boolean): Promise<McpHttpState | null>;
  /** The desktop app registers how its listener's token is replaced. */
  onRotate(rotator: () => Promise<McpHttpState>): void;
  /** null when this process has no token of its own to rotate (the browser host uses HEARTH_TOKEN). */
  rotateToken(): Promise<McpHttpState | null>;
}

/** How this start chose its database (server-switch/, docs/server-mode.md). */
export interface DatabaseChoice {
  /** Where the URL in use came from: a start option (flag/environment), the saved setting, or none (this computer). */
  source: 'start-option' | 'settings' | null;
  /** The saved server could not be used at start: why (this computer's data was opened instead). */
  savedFailed: string | null;
}

/** Everything a handler or a job may use. Built once by createCore; no module-level state. */
export interface CoreContext {
  db: Db;
  events: EventBus;
  dataDir: string | null;
  secrets: SecretStore;
  embedder: Embedder;
  parser: Parser;
  /** Every background queue's definition (src/core/app/queues.ts): jobs.retry asks its retry check. */
  queues: Partial<Record<JobQueue, QueueView>>;
  /** Asks the job runner to look for due work now (it also polls); call after committing an enqueue. */
  wakeJobs(): void;
  now(): Date;
  /** How other AI tools reach this process over MCP (set by the door that owns the core). */
  mcpDoor: McpDoor;
  /** Things found wrong at start-up and repaired, for the person to read (app.info). */
  notices: string[];
  /** Backups of the data folder (src/core/backups/service.ts); null for an in-memory core. */
  backups: Backups | null;
  /** How this start chose its database: a start option, the server saved in Settings, or this computer (docs/server-mode.md). */
  database: DatabaseChoice;
  /** Keeps watched folders ingested (docs/watched-folders.md). */
  watcher: FolderWatcher;
  /**
   * The folders a page may watch inside (the browser host's HEARTH_WATCH_DIRS / --watch-dir); null when
   * the door decides instead (the desktop app: a folder the person picked).
   */
  watchDirs: readonly string[] | null;
}

/**
 * What a handler reads of a queue's definition (QueueDef in src/core/jobs/types.ts), declared here so
 * the context needs nothing from the jobs mechanism.
 */
export interface QueueView {
  /** How many jobs of this queue may run at once. */
  concurrency: number;
  /** Why a person's "Retry now" cannot work (said as is), or null to retry. */
  retryRefusal?: (args: Record<string, unknown>, ctx: CoreContext) => Promise<string | null>;
}

/** Runs the watches the database holds (implemented by src/core/knowledge/watch/service.ts). */
export interface FolderWatcher {
  /** Starts each stored watch not running yet and stops each running one no longer stored; settles once started. */
  sync(): Promise<void>;
  /** Whether a running watch's folder could be read when last looked at. */
  status(persona: string, folder: string): 'watching' | 'missing';
}

/** What domains may ask of the backups (implemented by src/core/backups/service.ts). */
export interface Backups {
  list(): Promise<BackupInfo[]>;
  create(reason: 'manual' | 'daily' | 'before-migration' | 'before-persona-delete' | 'before-restore'): Promise<BackupInfo>;
  restore(id: string): Promise<{ restored: BackupInfo; before: BackupInfo }>;
}
