// The method map: every method any door serves, with its arguments and result.
// This interface is the single source of the method list: the core's handler
// table must implement exactly these keys (src/core/app/handlers.ts checks it).

import type { JobQueue, JobState, MemoryOrigin, RecallKind } from './enums';
import type { ActorKind } from './actor';
import type {
  AppInfo,
  BackupInfo,
  ActivityItem,
  ChatMessage,
  ChatPrompt,
  ISODate,
  IntegrityResult,
  Job,
  JobsSummary,
  KnowledgeSource,
  FolderWatch,
  McpCall,
  McpClient,
  McpConnectionInfo,
  McpHttpState,
  Memory,
  MemoryFilters,
  MemoryPage,
  MemorySearchResult,
  ImportFormat,
  ImportFromResult,
  DuplicateGroup,
  SimilarMemory,
  MemoryVersion,
  Persona,
  PersonaUpdate,
  PersonaImport,
  RecallHit,
  ConversationHit,
  ConversationInfo,
  ConnectionTest,
  DatabaseCopyResult,
  DatabaseTest,
  DatabaseView,
  TrashItem,
  UserModelEntry,
  UserModelVersion,
} from './types';
import type { SettingsPatch, SettingsView } from './settings';

/** method name → [arguments, result]. */
export interface Api {
  /**
   * notices: what start-up found damaged, set aside or finished (the keys file, an interrupted restore,
   * damage the check after start found), for the person to read; the UI shows them as a banner.
   */
  'app.info': [Record<string, never>, AppInfo];
  /** Hides one notice (given by its text) until the next start; returns the ones left. */
  'app.dismissNotice': [{ notice: string }, { notices: string[] }];

  'personas.list': [Record<string, never>, Persona[]];
  'personas.create': [{ name: string; avatar?: string | null }, Persona];
  'personas.rename': [{ id: string; name: string; avatar?: string | null }, Persona];
  'personas.delete': [{ id: string; confirm: string }, { deleted: Persona['counts'] }];
  /** Privacy settings (docs/privacy.md); the warnings say which model calls the current providers will refuse. */
  'personas.update': [{ id: string; localOnly?: boolean; mcp?: boolean }, PersonaUpdate];
  /**
   * Writes the persona to one `<name>.hearth` file (docs/export.md). The browser host answers with `url`
   * (a one-time download, same Bearer token); the desktop app asks where to save and answers with `path`
   * (null when the user cancelled).
   */
  'personas.export': [{ id: string }, { name: string; bytes: number; url?: string; path?: string | null }];
  /** A .hearth file as a new persona: uploaded bytes, or (desktop only) a file the user dropped or picked. */
  'personas.import': [{ name: string; dataBase64: string } | { path: string }, PersonaImport];
  /** Stops the import of the file of this name (the `persona` of its `personas.transfer` events); nothing of it stays. */
  'personas.importCancel': [{ name: string }, { cancelled: number }];

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
  'memories.topBlock': [{ persona: string; withIds?: boolean }, string];
  /** Memories from another tool's export into this persona (origin `import`); `dryRun` previews and writes nothing. */
  'memories.importFrom': [
    { persona: string; format: ImportFormat; text?: string; dataBase64?: string; dryRun?: boolean },
    ImportFromResult,
  ];
  /** Every version of one memory, oldest first (docs/history.md). */
  'memories.history': [{ id: string }, MemoryVersion[]];
  /** Brings back a past version's content, category, importance and day: a new version. */
  'memories.restoreVersion': [{ id: string; version: number }, Memory];
  /** Marks `id` as replaced by the newer memory `by` (same persona); nothing is deleted. */
  'memories.supersede': [{ id: string; by: string; reason?: string }, Memory];
  /** Undoes a supersession: `id` is current again. */
  'memories.unsupersede': [{ id: string }, Memory];
  /** The persona's stored memory that says `content` in other words, or null (docs/duplicates.md). */
  'memories.similar': [{ persona: string; content: string; exclude?: string[] }, SimilarMemory | null];
  /** Groups of near-duplicates the persona already holds, biggest first (Tidy up). */
  'memories.duplicates': [{ persona: string }, DuplicateGroup[]];
  /** Supersedes `others` by `keep` (history kept, undoable); returns the superseded ones. */
  'memories.merge': [{ keep: string; others: string[] }, Memory[]];
  /** These memories are not duplicates of each other: Tidy up does not group them again. */
  'memories.notDuplicates': [{ ids: string[] }, { pairs: number }];
  /** The latest changes across a persona's memories and user model, newest first. */
  'activity.list': [
    { persona: string; actorKind?: ActorKind; kind?: 'memory' | 'userModel'; limit?: number; before?: string | null },
    { items: ActivityItem[]; nextCursor: string | null },
  ];

  'userModel.list': [{ persona: string }, UserModelEntry[]];
  'userModel.upsert': [{ persona: string; dimension: string; content: string; confidence?: number }, UserModelEntry];
  /** `trashId`: what `trash.restore` takes to undo it (docs/trash.md). */
  'userModel.delete': [{ persona: string; dimension: string }, { deleted: boolean; trashId: string | null }];
  'userModel.block': [{ persona: string }, string];
  /** Every version of one dimension, oldest first, deletions included. */
  'userModel.history': [{ persona: string; dimension: string }, UserModelVersion[]];
  'userModel.restoreVersion': [{ persona: string; dimension: string; version: number }, UserModelEntry];

  'knowledge.ingest': [
    { persona: string; path: string } | { persona: string; name: string; dataBase64: string },
    { jobId: string; source: string },
  ];
  'knowledge.listSources': [{ persona: string }, KnowledgeSource[]];
  'knowledge.deleteSource': [{ persona: string; source: string }, { deleted: number; trashId: string | null }];
  /** Keeps a folder's documents ingested (docs/watched-folders.md); `folder` is an absolute path the door allows. */
  'knowledge.watch': [{ persona: string; folder: string }, FolderWatch];
  /** Stops watching; what was ingested stays. */
  'knowledge.unwatch': [{ persona: string; folder: string }, { unwatched: boolean }];
  /** `allowedDirs`: the folders the browser host may watch inside (null: the desktop app's folder picker decides). */
  'knowledge.watches': [{ persona: string }, { watches: FolderWatch[]; allowedDirs: string[] | null }];

  /** What deletes put in the persona's trash, newest first (docs/trash.md). */
  'trash.list': [{ persona: string }, TrashItem[]];
  /** Puts one item back whole: same id, versions, vectors and links. */
  'trash.restore': [{ id: string }, TrashItem];
  /** Removes everything in the persona's trash for good; only with `confirm: true` (the UI asks first). */
  'trash.empty': [{ persona: string; confirm: true }, { emptied: number }];

  recall: [
    {
      persona: string;
      query: string;
      limit?: number;
      date?: ISODate;
      kinds?: RecallKind[];
      /** Also return superseded memories, each ranked below what replaced it. */
      includeSuperseded?: boolean;
      /** Narrows which memories recall considers (knowledge is unaffected); none by default. */
      filters?: MemoryFilters;
    },
    RecallHit[],
  ];
  /** The memory browser's search: recall over memories only, with how many memories match at all. */
  'memories.search': [
    { persona: string; query: string; limit?: number; filters?: MemoryFilters; includeSuperseded?: boolean },
    MemorySearchResult,
  ];

  'embeddings.backfill': [{ persona?: string }, { enqueued: number }];
  'jobs.list': [{ state?: JobState; queue?: JobQueue; persona?: string; limit?: number }, JobsSummary];
  'jobs.retry': [{ id: string }, Job];

  'settings.get': [Record<string, never>, SettingsView];
  'settings.set': [SettingsPatch, SettingsView];
  /** One real request with the saved settings; a failure is an answer ({ok: false}), not an error. */
  'settings.testConnection': [
    { which: 'chat' | 'embeddings'; chat?: { baseUrl: string | null; model: string | null; apiKey?: string } },
    ConnectionTest,
  ];

  // `conversation`: which of the persona's conversations; omitted, the current one (most recently used).
  'chat.send': [{ persona: string; text: string; conversation?: string }, ChatMessage];
  /** Rewrites the last user message and answers it again: what followed it is replaced. */
  'chat.edit': [{ persona: string; conversation?: string; text: string }, ChatMessage];
  /** Answers the last user message again (Retry / Regenerate): what followed it is replaced. */
  'chat.retry': [{ persona: string; conversation?: string }, ChatMessage];
  'chat.cancel': [{ persona: string }, { cancelled: boolean }];
  'chat.history': [{ persona: string; conversation?: string }, { messages: ChatMessage[]; summary: string; conversation: string | null }];
  'chat.clear': [{ persona: string; conversation?: string }, { cleared: number }];
  'chat.prompt': [{ persona: string; conversation?: string }, ChatPrompt];

  'conversations.list': [{ persona: string }, ConversationInfo[]];
  'conversations.search': [{ persona: string; query: string; limit?: number }, ConversationHit[]];
  'conversations.create': [{ persona: string; title?: string; incognito?: boolean }, ConversationInfo];
  /** Closing an incognito conversation deletes it (docs/privacy.md); any other conversation stays as it is. */
  'conversations.close': [{ persona: string; id: string }, { deleted: boolean }];
  'conversations.rename': [{ persona: string; id: string; title: string }, ConversationInfo];
  'conversations.delete': [{ persona: string; id: string }, { deleted: boolean }];

  'mcp.clients': [Record<string, never>, McpClient[]];
  'mcp.calls': [{ client?: string; limit?: number }, McpCall[]];
  'mcp.setClientEnabled': [{ name: string; enabled: boolean }, McpClient];
  'mcp.connectionInfo': [{ persona: string }, McpConnectionInfo];
  /** The desktop app's local MCP listener (the browser host always serves /mcp). */
  'mcp.setListener': [{ enabled: boolean }, McpHttpState | null];
  'mcp.rotateToken': [Record<string, never>, McpHttpState | null];

  /** Backups of the whole database in <dataDir>/backups, newest first (docs/data-safety.md). */
  'backups.list': [Record<string, never>, BackupInfo[]];
  'backups.create': [Record<string, never>, BackupInfo];
  /** Backs up the current state first, then replaces it with the backup `id`. */
  'backups.restore': [{ id: string }, { restored: BackupInfo; before: BackupInfo }];
  /** Reads every table and index of the open database now. */
  'data.checkIntegrity': [Record<string, never>, IntegrityResult];

  // Where the data is kept (docs/server-mode.md, "Switching in Settings"). The URL goes in, never back out.
  'database.get': [Record<string, never>, DatabaseView];
  /** Connects (short timeout) and reports what the server is and holds; a failure is an answer. Writes nothing. */
  'database.test': [{ url: string }, DatabaseTest];
  /** Copies every persona of this computer into the server, then saves it for the next start. */
  'database.copyAndSwitch': [{ url: string }, DatabaseCopyResult];
  /** Forgets the saved server: this computer's data from the next start. */
  'database.useLocal': [Record<string, never>, DatabaseView];
}

export type Method = keyof Api;
export type ArgsOf<M extends Method> = Api[M][0];
export type ResultOf<M extends Method> = Api[M][1];
