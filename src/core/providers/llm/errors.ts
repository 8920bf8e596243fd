import type { APIError } from 'openai';
import { AppError } from '../../../shared/errors';
import { loadedOpenAi } from '../openai-lib';

function looksLikeOverflow(e: APIError): boolean {
  const text = `${e.code ?? ''} ${e.message}`.toLowerCase();
  return (
    text.includes('context_length_exceeded') ||
    text.includes('maximum context length') ||
    text.includes('context window') ||
    text.includes('too many tokens')
  );
}

/** Turns whatever the client threw into an error a person can act on. */
export function mapProviderError(e: unknown, where: string, signal?: AbortSignal): AppError {
  if (e instanceof AppError) return e;
  // The client's own errors come only from a request, which loaded the library (openai-lib.ts).
  const { APIConnectionError, APIError, APIUserAbortError } = loadedOpenAi() ?? {};
  if ((APIUserAbortError && e instanceof APIUserAbortError) || signal?.aborted) return new AppError('cancelled', 'The reply was stopped.');
  // APIConnectionError covers refused connections, DNS failures and timeouts.
  if (APIConnectionError && e instanceof APIConnectionError) {
    return new AppError('provider_unreachable', `Cannot reach the chat model at ${where}. Is the server running? (${e.message})`);
  }
  if (APIError && e instanceof APIError) {
    if (e.status === 401 || e.status === 403) {
      return new AppError('provider_auth', `The chat model at ${where} refused the API key (HTTP ${e.status}). Check it in Settings.`);
    }
    if (looksLikeOverflow(e)) {
      return new AppError('context_overflow', `The conversation is too long for the model's context window: ${e.message}`);
    }
    if (e.status === 404) {
      return new AppError('provider_error', `The chat model at ${where} answered 404: check the base URL and model name. (${e.message})`);
    }
    return new AppError('provider_error', `The chat model failed (HTTP ${e.status ?? '?'}): ${e.message}`);
  }
  return new AppError('provider_error', `The chat model failed: ${(e as Error)?.message ?? String(e)}`);
}
