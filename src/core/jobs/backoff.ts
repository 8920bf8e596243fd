export interface BackoffOptions {
  /** Delay before the first retry; doubles with each further one. */
  baseMs: number;
  /** Ceiling of any single delay. */
  maxMs: number;
}

/**
 * Delay before the retry that follows failed attempt `attempt` (1-based):
 * base · 2^(attempt−1), capped, with ±25 % jitter so that jobs which failed
 * together (one outage) do not all come back in the same instant.
 */
export function backoffDelay(attempt: number, o: BackoffOptions, random: () => number = Math.random): number {
  const exp = Math.min(o.maxMs, o.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(0, Math.round(exp * (0.75 + 0.5 * random())));
}
