import { AppError } from '../../../shared/errors';
import { OPENAI_API_URL } from '../../../shared/key-owner';
import { checkLocality, type ContentScope } from '../locality';
import { OpenAiChatProvider } from './openai';
import type { ChatProvider } from './types';

export interface ChatConfig {
  baseUrl: string | null;
  model: string | null;
  /** Core-internal only: never put this in an answer or an event. */
  apiKey: string | null;
}

/**
 * The configured chat model, or a `not_configured` error that says how to set one.
 * The client never retries on its own: in a turn the person sees the failure
 * at once and can resend; in a job the queue's backoff is the retry.
 * `scope` names whose content the calls carry: a local-only persona's is refused
 * here, before any request, unless the server is on this computer (docs/privacy.md).
 */
export function chatProviderFrom(settings: { chat: ChatConfig }, scope: ContentScope): ChatProvider {
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
