/**
 * Runs one request with a signal of its own that follows `parent`. A client
 * given a long-lived signal (the job runner's, which lives as long as the
 * app) may add an abort listener per request and never remove it; here the
 * parent gets exactly one listener, removed when the request settles.
 */
export async function withRequestSignal<T>(parent: AbortSignal | undefined, run: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!parent) return run(undefined);
  const own = new AbortController();
  const follow = () => own.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener('abort', follow, { once: true });
  try {
    return await run(own.signal);
  } finally {
    parent.removeEventListener('abort', follow);
  }
}
