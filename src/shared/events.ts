import type { ErrorCode } from './errors';
import type { ChatMessage, Job, JobProgress } from './types';

/** Events pushed from the core to every connected UI. */
export interface Events {
  'personas.changed': { persona?: string };
  'memories.changed': { persona: string; ids: string[]; reason: 'write' | 'update' | 'delete' | 'embedded' | 'restore' };
  'userModel.changed': { persona: string };
  'knowledge.changed': { persona: string; source: string };
  /** A watched folder's files changed state, or the watch started, stopped or lost its folder (docs/watched-folders.md). */
  'knowledge.watch': { persona: string; folder: string };
  /** Something went into, or out of, the persona's trash. */
  'trash.changed': { persona: string };
  'jobs.changed': { job: Job };
  'ingest.progress': { persona: string; source: string; jobId: string; progress: JobProgress };
  'chat.token': { persona: string; conversation: string; messageId: string; delta: string };
  'chat.message': { persona: string; conversation: string; message: ChatMessage };
  /** `conversation`: the one the turn ran in (absent when it failed before one was chosen). */
  'chat.state': { persona: string; conversation?: string; busy: boolean; error?: { code: ErrorCode; message: string } };
  /** A persona export or import under way (done/total lines of the file). */
  'personas.transfer': { op: 'export' | 'import'; persona: string; stage: string; done: number; total: number };
  /** A confirmed persona deletion under way: first the verified backup (seconds), then the delete itself. */
  'personas.deleting': { persona: string; stage: 'backup' | 'delete' };
  'settings.changed': Record<string, never>;
  /**
   * "Copy my data and switch" under way: persona `index` of `count` (its name), the stage of its
   * export or import and its done/total lines; 'done' or 'failed' once at the end.
   */
  'database.copy': { stage: 'export' | 'import' | 'done' | 'failed'; persona: string; index: number; count: number; done: number; total: number };
  /** An AI tool called over MCP, or the user switched one: the Connections view reloads. */
  'mcp.changed': { client: string };
  /** A notice was raised after start (the check after start found damage) or dismissed: app.info has the list. */
  'app.notices': Record<string, never>;
}

export type EventName = keyof Events;
