import type { Settings } from '../../shared/settings';
import { EMBEDDING_DEFAULTS } from '../providers/embeddings/config';

/** Non-secret settings as the core uses them (keys live in the secret store); their schema is the contract's. */
export type { Settings };

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
