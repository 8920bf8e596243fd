import type { EventName, Job, JobQueue } from '../../shared/api';
import type { EventBus } from '../events';
import type { Core } from '../index';

/** Re-checks sooner than the poll when one of the core's events arrives. */
export interface WaitOptions {
  /** The core's events: a check runs soon after each of `on` (never two at once, never closer than 20 ms). */
  events?: EventBus;
  on?: EventName[];
  /** The fallback poll, for changes that push no event. */
  pollMs?: number;
}

/** The least time between two checks, as the old fixed poll had. */
const MIN_GAP_MS = 20;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls until `check` returns a value (not undefined/false) or the time is up.
 * With `events`, a check also runs on every pushed event and the poll slows to
 * a fallback: each check is a database round trip that competes, on the one
 * database thread, with the work being waited for.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 60_000,
  options: WaitOptions = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  const pollMs = options.pollMs ?? (options.events ? 250 : MIN_GAP_MS);
  const on = new Set(options.on ?? []);
  let nudge: (() => void) | null = null;
  let nudged = false;
  const off = options.events?.subscribe((name) => {
    if (on.size && !on.has(name)) return;
    nudged = true;
    nudge?.();
  });
  try {
    for (;;) {
      nudged = false;
      const v = await check();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await sleep(MIN_GAP_MS);
      // An event since the check began means the answer may have changed: look again now.
      if (nudged || pollMs <= MIN_GAP_MS) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs - MIN_GAP_MS);
        function done() {
          clearTimeout(timer);
          nudge = null;
          resolve();
        }
        nudge = done;
      });
    }
  } finally {
    off?.();
  }
}

/** Waits until no job of the queue is waiting or running, and returns its jobs (oldest first). */
export async function waitForJobs(core: Core, queue: JobQueue = 'embeddings', timeoutMs = 60_000): Promise<Job[]> {
  return waitFor(
    async () => {
      const s = await core.call('jobs.list', { queue, limit: 500 });
      const busy = s.counts.available + s.counts.running + s.counts.retryable;
      return busy === 0 ? [...s.jobs].reverse() : undefined;
    },
    `the ${queue} jobs to finish`,
    timeoutMs,
    { events: core.events, on: ['jobs.changed'] },
  );
}

/** Waits for one job to reach a state. */
export async function waitForJobState(core: Core, id: string, state: Job['state'], timeoutMs = 60_000): Promise<Job> {
  return waitFor(
    async () => (await core.call('jobs.list', { limit: 500 })).jobs.find((j) => j.id === id && j.state === state),
    `job ${id} to be ${state}`,
    timeoutMs,
    { events: core.events, on: ['jobs.changed'] },
  );
}
