import type { Theme } from '../../shared/settings';
import type { EmbeddingConfig } from '../providers/embeddings/config';
import { EMBEDDING_DEFAULTS } from '../providers/embeddings/config';

/** Non-secret settings as the core uses them (keys live in the secret store). */
export interface Settings {
  chat: { baseUrl: string | null; model: string | null };
  embeddings: EmbeddingConfig;
  reviewEvery: number;
  contextBudgetTokens: number;
  workspaceDir: string | null;
  maxIngestBytes: number;
  durableCommits: boolean;
  /** How many backups are kept in <dataDir>/backups (the newest; docs/data-safety.md). */
  backupsKeep: number;
  /** Days a deleted item stays in the trash (docs/trash.md). */
  trashDays: number;
  /** Recall may ask the chat model for search queries (src/core/recall/rewrite.ts); never required. */
  recallRewrite: boolean;
  /** The first-launch welcome was dismissed (docs/ui.md). */
  welcomeDismissed: boolean;
  theme: Theme;
}

export const DEFAULT_SETTINGS: Settings = {
  chat: { baseUrl: null, model: null },
  embeddings: EMBEDDING_DEFAULTS.local!,
  reviewEvery: 8,
  contextBudgetTokens: 16_000,
  workspaceDir: null,
  maxIngestBytes: 100 * 1024 * 1024,
  durableCommits: false,
  backupsKeep: 7,
  trashDays: 30,
  recallRewrite: false,
  welcomeDismissed: false,
  theme: 'system',
};

/** Names in the secret store. */
export const SECRET_CHAT_KEY = 'chat.apiKey';
export const SECRET_EMBEDDINGS_KEY = 'embeddings.apiKey';
