// The closed sets of names the contract uses, as values: the types below are
// derived from these lists, and the core builds its zod enums from them, so a
// name is added in exactly one place. No runtime dependencies.

export const MEMORY_ORIGINS = ['explicit', 'review', 'flush', 'manual', 'import'] as const;
/** Who wrote a memory; `mcp:<client>` is another AI tool connected over MCP (its sanitised initialize name). */
export type MemoryOrigin = (typeof MEMORY_ORIGINS)[number] | `mcp:${string}`;

/** 'none': the database stores no vectors (a PostgreSQL server without pgvector; docs/server-mode.md). */
export const EMBEDDING_STATUSES = ['pending', 'current', 'stale', 'failed', 'none'] as const;
export type EmbeddingStatus = (typeof EMBEDDING_STATUSES)[number];

/** What recall searches: stored memories and ingested knowledge chunks. */
export const RECALL_KINDS = ['memory', 'knowledge'] as const;
export type RecallKind = (typeof RECALL_KINDS)[number];

export const JOB_STATES = ['available', 'running', 'completed', 'retryable', 'discarded', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Every background queue; a queue's work is registered in src/core/app/queues.ts. */
export const JOB_QUEUES = ['embeddings', 'ingest', 'memory_review', 'compaction', 'trash_purge'] as const;
export type JobQueue = (typeof JOB_QUEUES)[number];

export const EMBEDDING_PROVIDERS = ['local', 'openai', 'compatible'] as const;
export type EmbeddingProviderKind = (typeof EMBEDDING_PROVIDERS)[number];

/** Other tools' exports memories.importFrom reads: a Markdown/plain-text list, mem0's JSON, ChatGPT's saved memories. */
export const IMPORT_FORMATS = ['text', 'mem0', 'chatgpt'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** How a watched folder's file stands (docs/watched-folders.md): waiting, being read, in, or failed. */
export const WATCH_FILE_STATES = ['pending', 'ingesting', 'ingested', 'error'] as const;
export type WatchFileState = (typeof WATCH_FILE_STATES)[number];
