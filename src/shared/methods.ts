// The method map: every method any door serves, with its arguments and result.
// This interface is the single source of the method list: the core's handler
// table must implement exactly these keys (src/core/app/handlers.ts checks it).

import type { JobQueue, JobState, MemoryOrigin, RankingVariant, RecallKind } from './enums';
import type {
  ChatMessage,
  ChatPrompt,
  ISODate,
  Job,
  JobsSummary,
  KnowledgeSource,
  McpCall,
  McpClient,
  McpConnectionInfo,
  McpHttpState,
  Memory,
  MemoryFilters,
  MemoryPage,
  Persona,
  RecallHit,
  ConversationInfo,
  ConnectionTest,
  UserModelEntry,
} from './types';
import type { SettingsPatch, SettingsView } from './settings';

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
      kinds?: RecallKind[];
      variant?: RankingVariant;
    },
    RecallHit[],
  ];

  'embeddings.backfill': [{ persona?: string }, { enqueued: number }];
  'jobs.list': [{ state?: JobState; queue?: JobQueue; persona?: string; limit?: number }, JobsSummary];
  'jobs.retry': [{ id: string }, Job];

  'settings.get': [Record<string, never>, SettingsView];
  'settings.set': [SettingsPatch, SettingsView];
  /** One real request with the saved settings; a failure is an answer ({ok: false}), not an error. */
  'settings.testConnection': [{ which: 'chat' | 'embeddings' }, ConnectionTest];

  // `conversation`: which of the persona's conversations; omitted, the current one (most recently used).
  'chat.send': [{ persona: string; text: string; conversation?: string }, ChatMessage];
  /** Answers the last user message again (Retry / Regenerate): what followed it is replaced. */
  'chat.retry': [{ persona: string; conversation?: string }, ChatMessage];
  'chat.cancel': [{ persona: string }, { cancelled: boolean }];
  'chat.history': [{ persona: string; conversation?: string }, { messages: ChatMessage[]; summary: string; conversation: string | null }];
  'chat.clear': [{ persona: string; conversation?: string }, { cleared: number }];
  'chat.prompt': [{ persona: string; conversation?: string }, ChatPrompt];

  'conversations.list': [{ persona: string }, ConversationInfo[]];
  'conversations.create': [{ persona: string; title?: string }, ConversationInfo];
  'conversations.rename': [{ persona: string; id: string; title: string }, ConversationInfo];
  'conversations.delete': [{ persona: string; id: string }, { deleted: boolean }];

  'mcp.clients': [Record<string, never>, McpClient[]];
  'mcp.calls': [{ client?: string; limit?: number }, McpCall[]];
  'mcp.setClientEnabled': [{ name: string; enabled: boolean }, McpClient];
  'mcp.connectionInfo': [{ persona: string }, McpConnectionInfo];
  /** The desktop app's local MCP listener (the browser host always serves /mcp). */
  'mcp.setListener': [{ enabled: boolean }, McpHttpState | null];
}

export type Method = keyof Api;
export type ArgsOf<M extends Method> = Api[M][0];
export type ResultOf<M extends Method> = Api[M][1];
