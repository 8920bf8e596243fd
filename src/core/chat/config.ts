import { AppError } from '../../shared/errors';
import { OPENAI_API_URL } from '../../shared/key-owner';
import type { CoreContext } from '../context';
import { checkLocality, type ContentScope } from '../providers/locality';
import { OpenAiChatProvider } from '../providers/llm/openai';
import type { ChatProvider } from '../providers/llm/types';
import { type ChatConfig, readSettings } from '../settings/store';
import { chatKey } from '../settings/keys';

export interface ChatSettings {
  chat: ChatConfig;
  reviewEvery: number;
  contextBudgetTokens: number;
}

/** Read at the start of every turn and job, so a settings change applies to the next one. */
export async function loadChatSettings(ctx: CoreContext): Promise<ChatSettings> {
  const s = await readSettings(ctx);
  // One settings read per turn (settings/store.chatConfig would read them again).
  const chat = { ...s.chat, apiKey: await chatKey(ctx.secrets, s) };
  return { chat, reviewEvery: s.reviewEvery, contextBudgetTokens: s.contextBudgetTokens };
}

/**
 * The configured chat model, or a `not_configured` error that says how to set one.
 * The client never retries on its own: in a turn the person sees the failure
 * at once and can resend; in a job the queue's backoff is the retry.
 * `scope` names whose content the calls carry: a local-only persona's is refused
 * here, before any request, unless the server is on this computer (docs/privacy.md).
 */
export function chatProviderFrom(settings: ChatSettings, scope: ContentScope): ChatProvider {
  const { baseUrl, model, apiKey } = settings.chat;
  if (!model) {
    throw new AppError(
      'not_configured',
      'No chat model is configured. Open Settings → Chat model and enter a model name, plus the base URL of a local OpenAI-compatible server (Ollama, llama.cpp, LM Studio) or an OpenAI API key.',
    );
  }
  if (!baseUrl && !apiKey) {
    throw new AppError(
      'not_configured',
      'The chat model needs either a base URL (a local OpenAI-compatible server) or an OpenAI API key. Set one in Settings → Chat model.',
    );
  }
  checkLocality(scope, 'chat', baseUrl ?? OPENAI_API_URL);
  return new OpenAiChatProvider({ baseUrl, model, apiKey, maxRetries: 0 });
}
