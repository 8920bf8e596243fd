// The one API contract. Every door (Electron IPC, the browser host, scripts)
// serves exactly these methods and events; the core validates the arguments.
// Types only: this file has no runtime dependencies.

export type ISODate = string; // YYYY-MM-DD (a local calendar day)
export type ISOTime = string; // full ISO timestamp

export type MemoryOrigin = 'explicit' | 'review' | 'flush' | 'manual' | 'import';
export type EmbeddingStatus = 'pending' | 'current' | 'stale' | 'failed';

export interface Persona {
  id: string;
  name: string;
  createdAt: ISOTime;
  counts: { memories: number; userModel: number; knowledgeSources: number; knowledgeChunks: number; messages: number };
}

export interface Memory {
  id: string;
  persona: string;
  category: string | null;
  content: string;
  importance: number;
  day: ISODate;
  origin: MemoryOrigin;
  embeddingStatus: EmbeddingStatus;
  embeddingModel: string | null;
  embeddingError: string | null;
  conversationId: string | null;
  insertedAt: ISOTime;
  updatedAt: ISOTime;
}

export interface MemoryFilters {
  category?: string;
  importanceMin?: number;
  importanceMax?: number;
  dayFrom?: ISODate;
  dayTo?: ISODate;
  origin?: MemoryOrigin;
}

export interface MemoryPage {
  items: Memory[];
  total: number;
  /** Opaque cursor for the next page, null when this is the last one. */
  nextCursor: string | null;
}

export interface UserModelEntry {
  id: string;
  persona: string;
  dimension: string;
  content: string;
  confidence: number;
  insertedAt: ISOTime;
  updatedAt: ISOTime;
}

export interface KnowledgeSource {
  source: string;
  chunks: number;
  chars: number;
  embedded: number; // chunks with a current-model vector
  kind: string | null; // pdf | markdown | text
  bytes: number | null;
  pages: number | null;
  ingestedAt: ISOTime;
}

export interface ScoreBreakdown {
  text: number; // normalised text relevance in [0, 1]
  cosine: number | null; // 1 - cosine distance; null when no current-model vector
  importance: number | null; // 0.2 * importance / 10 (memories only)
  recency: number | null; // 1 / (1 + days) (memories only)
  final: number;
  /** Of `text`, the part inherited from a neighbouring memory (context ranking); absent otherwise. */
  textFromNeighbours?: number;
}

export interface RecallHit {
  kind: 'memory' | 'knowledge';
  id: string;
  tag: string;
  content: string;
  score: ScoreBreakdown;
  memory?: Memory;
  source?: string;
  chunkIndex?: number;
}

/** bm25_context: BM25 plus a share of the best same-day neighbour's text match (the default). */
export type RankingVariant = 'bm25_context' | 'bm25' | 'ts_rank';

export type JobState = 'available' | 'running' | 'completed' | 'retryable' | 'discarded' | 'cancelled';
export type JobQueue = 'embeddings' | 'ingest' | 'memory_review' | 'compaction';

export interface Job {
  id: string;
  queue: JobQueue;
  persona: string | null;
  state: JobState;
  attempt: number;
  maxAttempts: number;
  runAt: ISOTime;
  lastError: string | null;
  errors: { attempt: number; at: ISOTime; error: string }[];
  progress: JobProgress | null;
  args: Record<string, unknown>;
  insertedAt: ISOTime;
  completedAt: ISOTime | null;
}

export interface JobProgress {
  stage: string; // e.g. parsing | chunking | writing | embedding
  done: number;
  total: number;
  label?: string;
}

export interface JobsSummary {
  jobs: Job[];
  counts: Record<JobState, number>;
  embeddingBacklog: number; // rows (memories + chunks) lacking a current-model vector
}

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string; // raw JSON text as the model sent it
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string;
  toolCalls: ChatToolCall[] | null;
  toolCallId: string | null;
  /** For tool results: memories this call wrote, for the chips in the transcript. */
  memoryIds: string[] | null;
  folded: boolean;
  createdAt: ISOTime;
}

export interface ChatPrompt {
  system: string;
  blocks: { base: string; userModel: string; topMemories: string; summary: string };
}

export interface SettingsView {
  chat: { baseUrl: string | null; model: string | null; apiKey: 'set' | 'not set' };
  embeddings: {
    provider: 'local' | 'openai' | 'compatible';
    baseUrl: string | null;
    model: string;
    dimensions: number;
    apiKey: 'set' | 'not set';
  };
  reviewEvery: number;
  contextBudgetTokens: number;
  workspaceDir: string | null;
  maxIngestBytes: number;
}

export interface SettingsPatch {
  chat?: { baseUrl?: string | null; model?: string | null; apiKey?: string | null };
  embeddings?: {
    provider: 'local' | 'openai' | 'compatible';
    baseUrl?: string | null;
    model?: string | null;
    dimensions?: number | null;
    apiKey?: string | null;
  };
  reviewEvery?: number;
  contextBudgetTokens?: number;
  workspaceDir?: string | null;
  maxIngestBytes?: number;
}

/** method name → [arguments, result]. */
export interface Api {
  'app.info': [Record<string, never>, { version: string; dataDir: string; embeddingModel: string }];

  'personas.list': [Record<string, never>, Persona[]];
  'personas.create': [{ name: string }, Persona];
  'personas.rename': [{ id: string; name: string }, Persona];
  'personas.delete': [{ id: string; confirm: string }, { deleted: Persona['counts'] }];

  'memories.write': [
    { persona: string; content: string; category?: string | null; importance?: number; day?: ISODate; origin?: MemoryOrigin },
    Memory,
  ];
  'memories.update': [
    { id: string; content?: string; category?: string | null; importance?: number; day?: ISODate },
    Memory,
  ];
  'memories.delete': [{ id: string }, { id: string; deleted: true; memory: Memory }];
  /** Puts back a memory deleted moments ago (the browser's undo), same id. */
  'memories.restore': [{ memory: Memory }, Memory];
  'memories.get': [{ id: string }, Memory];
  'memories.list': [{ persona: string; filters?: MemoryFilters; limit?: number; cursor?: string | null }, MemoryPage];
  'memories.categories': [{ persona: string }, string[]];
  'memories.topBlock': [{ persona: string }, string];

  'userModel.list': [{ persona: string }, UserModelEntry[]];
  'userModel.upsert': [{ persona: string; dimension: string; content: string; confidence?: number }, UserModelEntry];
  'userModel.delete': [{ persona: string; dimension: string }, { deleted: boolean }];
  'userModel.block': [{ persona: string }, string];

  'knowledge.ingest': [
    { persona: string; path: string } | { persona: string; name: string; dataBase64: string },
    { jobId: string; source: string },
  ];
  'knowledge.listSources': [{ persona: string }, KnowledgeSource[]];
  'knowledge.deleteSource': [{ persona: string; source: string }, { deleted: number }];

  recall: [
    {
      persona: string;
      query: string;
      limit?: number;
      date?: ISODate;
      kinds?: ('memory' | 'knowledge')[];
      variant?: RankingVariant;
    },
    RecallHit[],
  ];

  'embeddings.backfill': [{ persona?: string }, { enqueued: number }];
  'jobs.list': [{ state?: JobState; queue?: JobQueue; persona?: string; limit?: number }, JobsSummary];
  'jobs.retry': [{ id: string }, Job];

  'settings.get': [Record<string, never>, SettingsView];
  'settings.set': [SettingsPatch, SettingsView];

  'chat.send': [{ persona: string; text: string }, ChatMessage];
  'chat.cancel': [{ persona: string }, { cancelled: boolean }];
  'chat.history': [{ persona: string }, { messages: ChatMessage[]; summary: string }];
  'chat.clear': [{ persona: string }, { cleared: number }];
  'chat.prompt': [{ persona: string }, ChatPrompt];
}

export type Method = keyof Api;
export type ArgsOf<M extends Method> = Api[M][0];
export type ResultOf<M extends Method> = Api[M][1];

/** Events pushed from the core to every connected UI. */
export interface Events {
  'personas.changed': { persona?: string };
  'memories.changed': { persona: string; ids: string[]; reason: 'write' | 'update' | 'delete' | 'embedded' | 'restore' };
  'userModel.changed': { persona: string };
  'knowledge.changed': { persona: string; source: string };
  'jobs.changed': { job: Job };
  'ingest.progress': { persona: string; source: string; jobId: string; progress: JobProgress };
  'chat.token': { persona: string; messageId: string; delta: string };
  'chat.message': { persona: string; message: ChatMessage };
  'chat.state': { persona: string; busy: boolean; error?: { code: string; message: string } };
  'settings.changed': Record<string, never>;
}

export type EventName = keyof Events;

export interface AppErrorShape {
  code: string;
  message: string;
  details?: unknown;
}

export type Envelope<T> = { ok: true; data: T } | { ok: false; error: AppErrorShape };

export const METHODS: readonly Method[] = [
  'app.info',
  'personas.list',
  'personas.create',
  'personas.rename',
  'personas.delete',
  'memories.write',
  'memories.update',
  'memories.delete',
  'memories.restore',
  'memories.get',
  'memories.list',
  'memories.categories',
  'memories.topBlock',
  'userModel.list',
  'userModel.upsert',
  'userModel.delete',
  'userModel.block',
  'knowledge.ingest',
  'knowledge.listSources',
  'knowledge.deleteSource',
  'recall',
  'embeddings.backfill',
  'jobs.list',
  'jobs.retry',
  'settings.get',
  'settings.set',
  'chat.send',
  'chat.cancel',
  'chat.history',
  'chat.clear',
  'chat.prompt',
] as const;
