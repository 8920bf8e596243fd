import type { SettingsView } from '../../shared/api';
import type { CoreContext } from '../context';
import { readSettings } from './store';
import { SECRET_CHAT_KEY, SECRET_EMBEDDINGS_KEY } from './types';

const shown = (v: string | null): 'set' | 'not set' => (v ? 'set' : 'not set');

/** What the UI sees: keys only as set / not set, never their value. */
export async function settingsView(ctx: Pick<CoreContext, 'db' | 'secrets'>): Promise<SettingsView> {
  const s = await readSettings(ctx);
  return {
    chat: { ...s.chat, apiKey: shown(await ctx.secrets.get(SECRET_CHAT_KEY)) },
    embeddings: { ...s.embeddings, apiKey: shown(await ctx.secrets.get(SECRET_EMBEDDINGS_KEY)) },
    reviewEvery: s.reviewEvery,
    contextBudgetTokens: s.contextBudgetTokens,
    workspaceDir: s.workspaceDir,
    maxIngestBytes: s.maxIngestBytes,
  };
}
