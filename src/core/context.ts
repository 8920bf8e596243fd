import type { Db } from './db/client';
import type { EmbeddingService } from './embeddings/service';
import type { EventBus } from './events';
import type { DocumentParser } from './knowledge/parse/parser';

/** Where secrets (API keys) live: Electron safeStorage, or a 0600 file for the browser host. */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string | null): Promise<void>;
}

/** Everything a handler may use. Built once by createCore; no module-level state. */
export interface CoreContext {
  db: Db;
  events: EventBus;
  dataDir: string | null;
  secrets: SecretStore;
  /** The embedding model whose vectors count as current (SPEC §3). */
  embeddingModel(): string;
  /**
   * Embeds a recall query with the current provider (short timeout). Resolves
   * null when that is not possible, so recall falls back to text-only.
   */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array | null>;
  /** The embedding provider in effect (src/core/embeddings/service.ts); settings reconfigure it. */
  embedder: EmbeddingService;
  /** Parses ingested files in a worker thread kept between files (closed with the core). */
  parser: DocumentParser;
  /** Asks the job runner to look for due work now (it also polls); call after committing an enqueue. */
  wakeJobs(): void;
  now(): Date;
}
