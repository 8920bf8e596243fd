// Settings as the UI reads them (secrets only as set / not set) and patches them.

import type { EmbeddingProviderKind } from './enums';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface SettingsView {
  chat: { baseUrl: string | null; model: string | null; apiKey: 'set' | 'not set' };
  embeddings: {
    provider: EmbeddingProviderKind;
    baseUrl: string | null;
    model: string;
    dimensions: number;
    apiKey: 'set' | 'not set';
  };
  reviewEvery: number;
  contextBudgetTokens: number;
  workspaceDir: string | null;
  maxIngestBytes: number;
  /** Where API keys are kept on this machine, in words (differs by platform and door). */
  keyStorage: string;
  /** Each commit waits until it is on disk (docs/durability.md); off: at most the last second can be lost in an OS crash. */
  durableCommits: boolean;
  /** Backups kept in <dataDir>/backups, newest first (default 7). */
  backupsKeep: number;
  /** Days a deleted item stays in the trash before the daily purge removes it (default 30; docs/trash.md). */
  trashDays: number;
  /** Recall may ask the chat model to rewrite a question into search queries (docs/ranking.md, "Model help"); off by default. */
  recallRewrite: boolean;
  /** The first-launch welcome was dismissed (kept with the data, so it shows once per data folder; docs/ui.md). */
  welcomeDismissed: boolean;
  /** The colour theme: follow the system, or always light or dark (kept with the data, so every window and launch shows it). */
  theme: Theme;
}

export interface SettingsPatch {
  chat?: { baseUrl?: string | null; model?: string | null; apiKey?: string | null };
  embeddings?: {
    provider: EmbeddingProviderKind;
    baseUrl?: string | null;
    model?: string | null;
    dimensions?: number | null;
    apiKey?: string | null;
  };
  reviewEvery?: number;
  contextBudgetTokens?: number;
  workspaceDir?: string | null;
  maxIngestBytes?: number;
  durableCommits?: boolean;
  backupsKeep?: number;
  trashDays?: number;
  recallRewrite?: boolean;
  welcomeDismissed?: boolean;
  theme?: Theme;
}
