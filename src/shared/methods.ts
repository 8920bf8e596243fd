// What every method answers. The method list and each method's arguments are
// the zod schemas in src/shared/contract/ (docs/contract.md); this map gives
// each of those methods its result type, and must name exactly the same
// methods (checked below).

import type {
  AppInfo,
  BackupInfo,
  ActivityItem,
  ChatMessage,
  ChatPrompt,
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
  MemoryPage,
  MemorySearchResult,
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
import type { SettingsView } from './settings';
import type { ArgsOf, Method } from './contract';

export type { ArgsOf, Method, ParsedArgsOf } from './contract';

/** method name → what it answers. */
export interface Results {
  /**
   * notices: what start-up found damaged, set aside or finished (the keys file, an interrupted restore,
   * damage the check after start found), for the person to read; the UI shows them as a banner.
   */
  'app.info': AppInfo;
  /** Hides one notice (given by its text) until the next start; returns the ones left. */
  'app.dismissNotice': { notices: string[] };

  'personas.list': Persona[];
  'personas.create': Persona;
  'personas.rename': Persona;
  'personas.delete': { deleted: Persona['counts'] };
  /** Privacy settings (docs/privacy.md); the warnings say which model calls the current providers will refuse. */
  'personas.update': PersonaUpdate;
  /**
   * Writes the persona to one `<name>.hearth` file (docs/export.md). The browser host answers with `url`
   * (a one-time download, same Bearer token); the desktop app asks where to save and answers with `path`
   * (null when the user cancelled).
   */
  'personas.export': { name: string; bytes: number; url?: string; path?: string | null };
  /** A .hearth file as a new persona: uploaded bytes, or (desktop only) a file the user dropped or picked. */
  'personas.import': PersonaImport;
  /** Stops the import of the file of this name (the `persona` of its `personas.transfer` events); nothing of it stays. */
  'personas.importCancel': { cancelled: number };

  'memories.write': Memory;
  'memories.update': Memory;
  'memories.delete': { id: string; deleted: true; memory: Memory };
  /** Puts back a memory deleted moments ago (the browser's undo), same id. */
  'memories.restore': Memory;
  'memories.get': Memory;
  'memories.list': MemoryPage;
  'memories.categories': string[];
  'memories.topBlock': string;
  /** Memories from another tool's export into this persona (origin `import`); `dryRun` previews and writes nothing. */
  'memories.importFrom': ImportFromResult;
  /** Every version of one memory, oldest first (docs/history.md). */
  'memories.history': MemoryVersion[];
  /** Brings back a past version's content, category, importance and day: a new version. */
  'memories.restoreVersion': Memory;
  /** Marks `id` as replaced by the newer memory `by` (same persona); nothing is deleted. */
  'memories.supersede': Memory;
  /** Undoes a supersession: `id` is current again. */
  'memories.unsupersede': Memory;
  /** The persona's stored memory that says `content` in other words, or null (docs/duplicates.md). */
  'memories.similar': SimilarMemory | null;
  /** Groups of near-duplicates the persona already holds, biggest first (Tidy up). */
  'memories.duplicates': DuplicateGroup[];
  /** Supersedes `others` by `keep` (history kept, undoable); returns the superseded ones. */
  'memories.merge': Memory[];
  /** These memories are not duplicates of each other: Tidy up does not group them again. */
  'memories.notDuplicates': { pairs: number };
  /** The latest changes across a persona's memories and user model, newest first. */
  'activity.list': { items: ActivityItem[]; nextCursor: string | null };

  'userModel.list': UserModelEntry[];
  'userModel.upsert': UserModelEntry;
  /** `trashId`: what `trash.restore` takes to undo it (docs/trash.md). */
  'userModel.delete': { deleted: boolean; trashId: string | null };
  'userModel.block': string;
  /** Every version of one dimension, oldest first, deletions included. */
  'userModel.history': UserModelVersion[];
  'userModel.restoreVersion': UserModelEntry;

  'knowledge.ingest': { jobId: string; source: string };
  'knowledge.listSources': KnowledgeSource[];
  'knowledge.deleteSource': { deleted: number; trashId: string | null };
  /** Keeps a folder's documents ingested (docs/watched-folders.md); `folder` is an absolute path the door allows. */
  'knowledge.watch': FolderWatch;
  /** Stops watching; what was ingested stays. */
  'knowledge.unwatch': { unwatched: boolean };
  /** `allowedDirs`: the folders the browser host may watch inside (null: the desktop app's folder picker decides). */
  'knowledge.watches': { watches: FolderWatch[]; allowedDirs: string[] | null };

  /** What deletes put in the persona's trash, newest first (docs/trash.md). */
  'trash.list': TrashItem[];
  /** Puts one item back whole: same id, versions, vectors and links. */
  'trash.restore': TrashItem;
  /** Removes everything in the persona's trash for good; only with `confirm: true` (the UI asks first). */
  'trash.empty': { emptied: number };

  recall: RecallHit[];
  /** The memory browser's search: recall over memories only, with how many memories match at all. */
  'memories.search': MemorySearchResult;

  'embeddings.backfill': { enqueued: number };
  'jobs.list': JobsSummary;
  'jobs.retry': Job;

  'settings.get': SettingsView;
  'settings.set': SettingsView;
  /** One real request with the saved settings; a failure is an answer ({ok: false}), not an error. */
  'settings.testConnection': ConnectionTest;

  // `conversation`: which of the persona's conversations; omitted, the current one (most recently used).
  'chat.send': ChatMessage;
  /** Rewrites the last user message and answers it again: what followed it is replaced. */
  'chat.edit': ChatMessage;
  /** Answers the last user message again (Retry / Regenerate): what followed it is replaced. */
  'chat.retry': ChatMessage;
  'chat.cancel': { cancelled: boolean };
  'chat.history': { messages: ChatMessage[]; summary: string; conversation: string | null };
  'chat.clear': { cleared: number };
  'chat.prompt': ChatPrompt;

  'conversations.list': ConversationInfo[];
  'conversations.search': ConversationHit[];
  'conversations.create': ConversationInfo;
  /** Closing an incognito conversation deletes it (docs/privacy.md); any other conversation stays as it is. */
  'conversations.close': { deleted: boolean };
  'conversations.rename': ConversationInfo;
  'conversations.delete': { deleted: boolean };

  'mcp.clients': McpClient[];
  'mcp.calls': McpCall[];
  'mcp.setClientEnabled': McpClient;
  'mcp.connectionInfo': McpConnectionInfo;
  /** The desktop app's local MCP listener (the browser host always serves /mcp). */
  'mcp.setListener': McpHttpState | null;
  'mcp.rotateToken': McpHttpState | null;

  /** Backups of the whole database in <dataDir>/backups, newest first (docs/data-safety.md). */
  'backups.list': BackupInfo[];
  'backups.create': BackupInfo;
  /** Backs up the current state first, then replaces it with the backup `id`. */
  'backups.restore': { restored: BackupInfo; before: BackupInfo };
  /** Reads every table and index of the open database now. */
  'data.checkIntegrity': IntegrityResult;

  // Where the data is kept (docs/server-mode.md, "Switching in Settings"). The URL goes in, never back out.
  'database.get': DatabaseView;
  /** Connects (short timeout) and reports what the server is and holds; a failure is an answer. Writes nothing. */
  'database.test': DatabaseTest;
  /** Copies every persona of this computer into the server, then saves it for the next start. */
  'database.copyAndSwitch': DatabaseCopyResult;
  /** Forgets the saved server: this computer's data from the next start. */
  'database.useLocal': DatabaseView;
}

export type ResultOf<M extends Method> = Results[M];

/** method name → [arguments, result]. */
export type Api = { [M in Method]: [ArgsOf<M>, ResultOf<M>] };

// A method with arguments but no result type, or the other way round, is a compile error.
true satisfies [Exclude<Method, keyof Results> | Exclude<keyof Results, Method>] extends [never] ? true : never;
