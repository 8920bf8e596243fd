import type { z } from 'zod';
import type { memoryFilters } from './contract/fields';
import type { memoryShape } from './contract/memories';
import type * as app from './contract/results/app';
import type * as chat from './contract/results/chat';
import type * as jobs from './contract/results/jobs';
import type * as knowledge from './contract/results/knowledge';
import type * as mcp from './contract/results/mcp';
import type * as memories from './contract/results/memories';
import type * as personas from './contract/results/personas';
import type * as recall from './contract/results/recall';
import type * as trash from './contract/results/trash';
// The data the contract carries: what methods take and return and events push.
// Each shape is a zod schema in src/shared/contract/ (docs/contract.md) and its
// type here is derived from it, so a field and its description are stated once.
// Types only; the closed name sets they use live in ./enums.

import type { ImportFormat } from './enums';

export type ISODate = string; // YYYY-MM-DD (a local calendar day)
export type ISOTime = string; // full ISO timestamp

type Out<S extends z.ZodType> = z.output<S>;

export type AppInfo = Out<typeof app.appInfo>;

export type Persona = Out<typeof personas.persona>;
export type PersonaUpdate = Out<typeof personas.personaUpdate>;

/** A memory as every method returns it; its schema is the contract's (src/shared/contract/memories.ts), which the browser's undo sends back. */
export type Memory = z.output<typeof memoryShape>;

/** What a memory version records: who changed it (docs/history.md). */
export type MemoryChange = (typeof memories.MEMORY_CHANGES)[number];
export type MemoryVersion = Out<typeof memories.memoryVersion>;
export type UserModelChange = (typeof memories.USER_MODEL_CHANGES)[number];
export type UserModelVersion = Out<typeof memories.userModelVersion>;
export type ActivityItem = Out<typeof memories.activityItem>;

/** The memory browser's filters; their schema is the contract's (src/shared/contract/fields.ts). */
export type MemoryFilters = z.input<typeof memoryFilters>;

export type MemoryPage = Out<typeof memories.memoryPage>;
export type UserModelEntry = Out<typeof memories.userModelEntry>;

export type KnowledgeSource = Out<typeof knowledge.knowledgeSource>;
export type WatchedFile = Out<typeof knowledge.watchedFile>;
export type FolderWatch = Out<typeof knowledge.folderWatch>;

export type ScoreBreakdown = Out<typeof recall.scoreBreakdown>;

export type ConnectionTest = Out<typeof app.connectionTest>;
export type DatabaseProbe = Out<typeof app.databaseProbe>;
export type DatabaseTest = Out<typeof app.databaseTest>;
export type DatabaseView = Out<typeof app.databaseView>;
export type DatabaseCopyResult = Out<typeof app.databaseCopyResult>;

export type ConversationHit = Out<typeof chat.conversationHit>;
export type ConversationInfo = Out<typeof chat.conversationInfo>;

export type MemorySearchResult = Out<typeof recall.memorySearchResult>;
export type RecallHit = Out<typeof recall.recallHit>;
export type KnowledgeMatch = Out<typeof recall.knowledgeMatch>;

export type Job = Out<typeof jobs.job>;
export type JobProgress = Out<typeof jobs.jobProgress>;
export type JobsSummary = Out<typeof jobs.jobsSummary>;

export type ChatToolCall = Out<typeof chat.chatToolCall>;
export type ChatMessage = Out<typeof chat.chatMessage>;
export type ChatPrompt = Out<typeof chat.chatPrompt>;

export type McpClient = Out<typeof mcp.mcpClient>;
export type McpCall = Out<typeof mcp.mcpCall>;
export type McpHttpState = Out<typeof mcp.mcpHttpState>;
export type McpConnectionInfo = Out<typeof mcp.mcpConnectionInfo>;

export type PersonaImport = Out<typeof personas.personaImport>;
export type SimilarMemory = Out<typeof memories.similarMemory>;
export type DuplicateGroup = Out<typeof memories.duplicateGroup>;

/** Other tools' exports that memories.importFrom reads. */
export type { ImportFormat };

export type ImportFromItem = Out<typeof memories.importFromItem>;
export type ImportFromResult = Out<typeof memories.importFromResult>;

export type BackupInfo = Out<typeof app.backupInfo>;

/** What a delete put in the persona's trash (docs/trash.md). */
export type TrashKind = (typeof trash.TRASH_KINDS)[number];
export type TrashItem = Out<typeof trash.trashItem>;

export type IntegrityResult = Out<typeof app.integrityResult>;
