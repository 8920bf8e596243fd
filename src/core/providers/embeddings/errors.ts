import { AppError } from '../../../shared/errors';
import { loadedOpenAi } from '../openai-lib';

/** Turns whatever the embeddings client threw into an error a person can act on. */
export function mapEmbeddingError(e: unknown, where: string, signal?: AbortSignal): AppError {
  if (e instanceof AppError) return e;
  // The client's own errors come only from a request, which loaded the library (openai-lib.ts).
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = loadedOpenAi() ?? {};
  if ((APIUserAbortError && e instanceof APIUserAbortError) || signal?.aborted) {
    const reason: unknown = signal?.reason;
    if (reason instanceof AppError) return reason;
    return new AppError('cancelled', 'The embedding request was stopped.');
  }
  if (APIConnectionTimeoutError && e instanceof APIConnectionTimeoutError) {
    return new AppError('provider_unreachable', `The embedding server at ${where} did not answer in time.`);
  }
  if (APIConnectionError && e instanceof APIConnectionError) {
    return new AppError('provider_unreachable', `Cannot reach the embedding server at ${where}. (${e.message})`);
  }
  if (APIError && e instanceof APIError) {
    if (e.status === 401 || e.status === 403) {
      return new AppError('provider_auth', `The embedding server at ${where} refused the API key (HTTP ${e.status}). Check it in Settings.`);
    }
    return new AppError('provider_error', `The embedding server at ${where} failed (HTTP ${e.status ?? '?'}): ${e.message}`);
  }
  return new AppError('provider_error', `Embedding failed: ${(e as Error)?.message ?? String(e)}`);
}
