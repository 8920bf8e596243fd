import type { ErrorCode } from './errors';
import type { Actor } from './actor';
import type { z } from 'zod';
import type { memoryFilters } from './contract/fields';
import type { memoryShape } from './contract/memories';
// The data the contract carries: what methods take and return and events push.
// Types only; the closed name sets they use live in ./enums.

import type {
  ImportFormat,
  JobQueue,
  JobState,
  RecallKind,
  WatchFileState,
} from './enums';

export type ISODate = string; // YYYY-MM-DD (a local calendar day)
export type ISOTime = string; // full ISO timestamp

/** What app.info says about the running Hearth. */
export interface AppInfo {
  version: string;
  /**
   * Whether the data lives in a data folder (`folder`) or only in memory. Never the folder's path: a page
   * gets no path of the computer Hearth runs on (docs/security.md); the desktop app opens it with `showDataFolder`.
   */
  storage: 'folder' | 'memory';
  embeddingModel: string;
  notices: string[];
  /**
   * Where the memory is kept: this computer's database, or a PostgreSQL server
   * (named user@host:port/database, never with its password). textOnly: the
   * server has no pgvector, so no vectors are stored and recall ranks by text.
   */
  database: { kind: 'local'; server: null; textOnly: false } | { kind: 'server'; server: string; textOnly: boolean };
}

export interface Persona {
  id: string;
  name: string;
  /** One emoji or one or two letters; null shows the name's first character (src/shared/avatar.ts). */
  avatar: string | null;
  createdAt: ISOTime;
  counts: { memories: number; userModel: number; knowledgeSources: number; knowledgeChunks: number; messages: number };
  /** Every model call carrying this persona's content goes only to this computer (docs/privacy.md). */
  localOnly: boolean;
  /** Other AI tools may use this persona over MCP. */
  mcp: boolean;
}

/** personas.update's answer: the persona, and what its privacy settings stop with the current providers. */
export interface PersonaUpdate {
  persona: Persona;
  /** One sentence per model call that will be refused, e.g. "Chat uses api.openai.com: …". Empty when nothing stops. */
  warnings: string[];
}

/** A memory as every method returns it; its schema is the contract's (src/shared/contract/memories.ts), which the browser's undo sends back. */
export type Memory = z.output<typeof memoryShape>;

/** What a memory version records: who changed it (docs/history.md). */
export type MemoryChange = 'create' | 'update' | 'restore' | 'supersede' | 'unsupersede' | 'delete' | 'undelete';

/** One state a memory has been in, from `validFrom` until `validTo` (null: current). */
export interface MemoryVersion {
  memoryId: string;
  persona: string;
  version: number;
  change: MemoryChange;
  content: string;
  category: string | null;
  importance: number;
  day: ISODate;
  supersededBy: string | null;
  /** null only for versions older than history itself (docs/history.md). */
  actor: Actor | null;
  conversationId: string | null;
  reason: string | null;
  validFrom: ISOTime;
  validTo: ISOTime | null;
}

export type UserModelChange = 'upsert' | 'restore' | 'delete';

/** One state of a user-model dimension; content and confidence are null for a deletion. */
export interface UserModelVersion {
  persona: string;
  dimension: string;
  version: number;
  change: UserModelChange;
  content: string | null;
  confidence: number | null;
  actor: Actor | null;
  conversationId: string | null;
  reason: string | null;
  validFrom: ISOTime;
  validTo: ISOTime | null;
}

/** One line of the activity log: a memory or user-model version, newest first. */
export type ActivityItem =
  | ({ kind: 'memory'; id: string } & MemoryVersion)
  | ({ kind: 'userModel'; id: string } & UserModelVersion);

/** The memory browser's filters; their schema is the contract's (src/shared/contract/fields.ts). */
export type MemoryFilters = z.input<typeof memoryFilters>;

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

/** One document file of a watched folder and how its latest change went (docs/watched-folders.md). */
export interface WatchedFile {
  /** Inside the folder, '/'-separated. */
  path: string;
  /** The knowledge source it becomes: "<watch label>/<path>". */
  source: string;
  state: WatchFileState;
  /** Why the file could not be ingested, naming it. */
  error: string | null;
  updatedAt: ISOTime;
}

/** A folder a persona keeps ingested. */
export interface FolderWatch {
  /** The folder's real path. */
  folder: string;
  /** What its files' source names start with. */
  label: string;
  /** 'missing': the folder cannot be read now (unplugged, renamed); nothing of it is removed until it is back. */
  status: 'watching' | 'missing';
  counts: Record<WatchFileState, number>;
  /** Errors first, then files in progress, then the latest ingested: at most 200. */
  files: WatchedFile[];
}

export interface ScoreBreakdown {
  text: number; // normalised text relevance in [0, 1]
  cosine: number | null; // 1 - cosine distance; null when no current-model vector
  importance: number | null; // 0.2 * importance / 10 (memories only)
  recency: number | null; // 1 / (1 + days) (memories only)
  final: number;
  /** Of `text`, the part inherited from a neighbouring memory (context ranking); absent otherwise. */
  textFromNeighbours?: number;
  /** The factor a memory's score was multiplied by for being written within a time the query names; absent otherwise. */
  timeBoost?: number;
}

/** Settings → Test connection: one real request to the saved model, and the server's model list. */
export type ConnectionTest =
  | { ok: true; detail: string; ms: number; models: string[] | null }
  | { ok: false; code: ErrorCode; message: string; ms: number; models: string[] | null };

/** What "Test connection" found on a PostgreSQL server (Settings → Data; docs/server-mode.md). */
export interface DatabaseProbe {
  /** user@host:port/database: never the password. */
  server: string;
  /** The server's version, e.g. "15.8". */
  version: string;
  /** pgvector: already in the database, installable (Hearth creates it), or missing (text-only). */
  vector: 'installed' | 'available' | 'missing';
  /** pg_textsearch (BM25): present, or missing (Hearth keeps its own term statistics). */
  textSearch: 'installed' | 'available' | 'missing';
  /** What the database holds now. */
  contents:
    | { kind: 'empty' }
    /** `schema`: the newest migration; `newer`: it has migrations this Hearth does not know. */
    | { kind: 'hearth'; schema: string; migrations: number; personas: number; newer: boolean }
    | { kind: 'other'; tables: number };
  /** Whether "Copy my data and switch" may go ahead; otherwise why not. */
  copy: { ok: true } | { ok: false; reason: string };
}

export type DatabaseTest = ({ ok: true } & DatabaseProbe) | { ok: false; code: ErrorCode; message: string };

/** Where the data is kept now and from the next start (Settings → Data). Never holds a password. */
export interface DatabaseView {
  /** In use now. `from`: a start option (--database-url / HEARTH_DATABASE_URL) or the saved setting. */
  active: { kind: 'local' } | { kind: 'server'; server: string; textOnly: boolean; from: 'start-option' | 'settings' };
  /** The server saved in Settings (user@host:port/database), used from the next start unless a start option overrides it. */
  saved: { server: string } | null;
  /** The saved server could not be used at this start (the reason); this computer's data was opened instead. */
  savedFailed: string | null;
  /** True when the next start would use other data than now: restart Hearth to switch. */
  restartNeeded: boolean;
}

/** What "Copy my data and switch" did: each local persona and the name it has on the server. */
export interface DatabaseCopyResult {
  server: string;
  personas: { from: string; to: string; id: string }[];
  view: DatabaseView;
}

/** One of a persona's conversations, as the conversation list shows it. */
/** A message of a past conversation that holds the words searched for (conversations.search). */
export interface ConversationHit {
  conversation: string;
  /** The conversation's title, or its first message when it has none. */
  title: string;
  message: string;
  role: 'user' | 'assistant';
  /** The message around the words found. */
  snippet: string;
  createdAt: ISOTime;
}

export interface ConversationInfo {
  id: string;
  /** Given by the person; '' until renamed (the UI then shows the first message). */
  title: string;
  firstMessage: string | null;
  /** User and assistant messages. */
  messages: number;
  createdAt: ISOTime;
  updatedAt: ISOTime;
  /** Reads the persona's memory but writes nothing, and is deleted when closed (docs/privacy.md). */
  incognito: boolean;
}

export interface MemorySearchResult {
  /** The best `limit` hits, best first (recall's order). */
  hits: RecallHit[];
  /**
   * Memories passing the filters that contain a word of the query or are close
   * in meaning (cosine ≥ MEANINGFUL_COSINE, recall-match.ts): the "of N" in "best 10 of N".
   */
  total: number;
  /** True when the meaning side was counted only among the nearest rows, so `total` is a lower bound. */
  totalIsLowerBound: boolean;
}

export interface RecallHit {
  kind: RecallKind;
  id: string;
  tag: string;
  content: string;
  score: ScoreBreakdown;
  memory?: Memory;
  source?: string;
  chunkIndex?: number;
  /** Knowledge: the sentences that matched the question best (offsets into `content`) and their page. */
  match?: KnowledgeMatch;
}

/** Where in a knowledge hit the question is answered: `start`/`end` index `content`; `page` for PDFs. */
export interface KnowledgeMatch {
  start?: number;
  end?: number;
  page?: number | null;
}


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
  /** What it works on, in words ("notes.pdf", "“Moved to Lyon…”"): set by jobs.list, absent in events. */
  subject?: string | null;
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

/** An AI tool that connected over MCP (its name from the initialize handshake). */
export interface McpClient {
  name: string;
  version: string | null;
  enabled: boolean;
  firstSeen: ISOTime;
  lastSeen: ISOTime;
  calls: number;
  lastCall: { tool: string; persona: string; at: ISOTime; ok: boolean } | null;
}

/** One line of the MCP call log (newest 1,000 kept). */
export interface McpCall {
  id: number;
  client: string;
  tool: string;
  persona: string;
  at: ISOTime;
  ok: boolean;
  error: string | null;
  ms: number | null;
}

/** Where this process answers MCP over HTTP. */
export interface McpHttpState {
  url: string;
  listening: boolean;
  /** The desktop app's listener can be switched; the browser host always serves /mcp. */
  switchable: boolean;
  enabled: boolean;
  /** The desktop listener's own token (kept per install, rotatable), for the HTTP snippet; absent on the browser host. */
  token?: string;
}

/** How other AI tools reach this Hearth: config snippets with this install's paths, and the listener. */
export interface McpConnectionInfo {
  dataDir: string;
  /** The stdio command an MCP host runs (absolute paths), for the persona asked about. */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Ready-to-paste JSON for Claude Desktop's claude_desktop_config.json. */
  claudeDesktop: string;
  /** The same server entry for any MCP host that takes {command, args, env}. */
  generic: string;
  /** Ready-to-paste JSON for Cursor's mcp.json (`mcpServers`). */
  cursor: string;
  /** Ready-to-paste JSON for VS Code's mcp.json (`servers`, with `type: "stdio"`). */
  vscode: string;
  /** Ready-to-paste JSON for a host that speaks Streamable HTTP (null when this process has no listener). */
  httpSnippet: string | null;
  /** Streamable HTTP: where a running Hearth answers MCP (null when this process has no listener). */
  http: McpHttpState | null;
}

/** What personas.import made: the new persona and how many records of each type it read. */
export interface PersonaImport {
  persona: Persona;
  counts: Record<string, number>;
  /** Rows queued for embedding (their vectors came from another model, or had none). */
  toEmbed: number;
  /** Rows whose vectors came with the file: they join the vector index in the background (found by text meanwhile). */
  toIndex: number;
}

/** A near-duplicate found for a text (docs/duplicates.md). */
export interface SimilarMemory {
  memory: Memory;
  /** The current model's cosine of the two texts, or null when the text rule decided. */
  cosine: number | null;
}

/** Memories Tidy up found saying the same thing; `keep` is the default one to keep (most important, then newest). */
export interface DuplicateGroup {
  keep: string;
  /** `keep` first. */
  memories: Memory[];
}

/** Other tools' exports that memories.importFrom reads. */

export type { ImportFormat };

export interface ImportFromItem {
  content: string;
  day: ISODate;
  category: string | null;
  /** Where the source gives one; otherwise the memory gets the default (5). */
  importance?: number;
  /**
   * duplicate: the same text (normalised) is already a memory of this persona, or earlier in the same file;
   * near-duplicate: a memory of this persona already says it in other words (docs/duplicates.md).
   */
  status: 'added' | 'duplicate' | 'near-duplicate';
  /** The stored memory a duplicate or near-duplicate repeats, when it is one already stored. */
  duplicateOf?: string;
}

export interface ImportFromResult {
  added: number;
  /** duplicates + nearDuplicates. */
  skipped: number;
  /** Items whose exact text (normalised) is already stored or earlier in the input. */
  duplicates: number;
  /** Items a stored memory already says in other words. */
  nearDuplicates: number;
  /** Every item read, in order (at most the first 1,000). */
  items: ImportFromItem[];
  dryRun: boolean;
}

/** One backup in <dataDir>/backups, as its manifest describes it. */
export interface BackupInfo {
  id: string;
  createdAt: ISOTime;
  /** Why it was taken: manual, daily, before-migration, before-persona-delete, before-restore. */
  reason: string;
  /** Size of the archive on disk. */
  bytes: number;
  counts: {
    personas: number;
    memories: number;
    knowledgeSources: number;
    knowledgeChunks: number;
    conversations: number;
    messages: number;
  };
  /** Opened after writing, counted, and its integrity check passed. */
  verified: boolean;
  problems: string[];
}

/** What a delete put in the persona's trash (docs/trash.md). */
export type TrashKind = 'memory' | 'user_model' | 'knowledge_source';

export interface TrashItem {
  /** The id `trash.restore` takes; for a memory, the memory's own id. */
  id: string;
  persona: string;
  kind: TrashKind;
  /** The memory id, the dimension or the document's name. */
  key: string;
  /** What a person reads: the memory's text, the dimension, the document's name. */
  what: string;
  deletedAt: ISOTime;
  deletedBy: string | null;
  /** When the daily purge removes it for good (`trashDays` after the delete). */
  purgeAt: ISOTime;
}

export interface IntegrityResult {
  ok: boolean;
  checked: number;
  problems: string[];
}
