import type { CoreContext } from '../context';
import type { ChatConfig } from '../providers/llm/config';
import { chatKey } from './keys';
import { readSettings } from './store';

export interface ChatSettings {
  chat: ChatConfig;
  reviewEvery: number;
  contextBudgetTokens: number;
}

/** Read at the start of every turn and job, so a settings change applies to the next one. */
export async function loadChatSettings(ctx: CoreContext): Promise<ChatSettings> {
  const s = await readSettings(ctx);
  // One settings read per turn (store.chatConfig would read them again).
  const chat = { ...s.chat, apiKey: await chatKey(ctx.secrets, s) };
  return { chat, reviewEvery: s.reviewEvery, contextBudgetTokens: s.contextBudgetTokens };
}
