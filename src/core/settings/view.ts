import type { SettingsView } from '../../shared/api';
import type { CoreContext } from '../context';
import { readSettings } from './store';
import { chatKey, embeddingsKey } from './keys';

const shown = (v: string | null): 'set' | 'not set' => (v ? 'set' : 'not set');

/** What the UI sees: keys only as set / not set, never their value. */
export async function settingsView(ctx: Pick<CoreContext, 'db' | 'secrets'>): Promise<SettingsView> {
  const s = await readSettings(ctx);
  return {
    chat: { ...s.chat, apiKey: shown(await chatKey(ctx.secrets, s)) },
    embeddings: { ...s.embeddings, apiKey: shown(await embeddingsKey(ctx.secrets, s)) },
    reviewEvery: s.reviewEvery,
    contextBudgetTokens: s.contextBudgetTokens,
    workspaceDir: s.workspaceDir,
    maxIngestBytes: s.maxIngestBytes,
    keyStorage: ctx.secrets.describe(),
    durableCommits: s.durableCommits,
    backupsKeep: s.backupsKeep,
    trashDays: s.trashDays,
    recallRewrite: s.recallRewrite,
    welcomeDismissed: s.welcomeDismissed,
    theme: s.theme,
  };
}
