import type { Job, JobQueue } from '../../shared/api';
import type { Core } from '../index';

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until no job of the queue is waiting or running, and returns its jobs (oldest first). */
export async function waitForJobs(core: Core, queue: JobQueue = 'embeddings', timeoutMs = 30_000): Promise<Job[]> {
  return waitFor(
    async () => {
      const s = await core.call('jobs.list', { queue, limit: 500 });
      const busy = s.counts.available + s.counts.running + s.counts.retryable;
      return busy === 0 ? [...s.jobs].reverse() : undefined;
    },
    `the ${queue} jobs to finish`,
    timeoutMs,
  );
}

/** Waits for one job to reach a state. */
export async function waitForJobState(core: Core, id: string, state: Job['state'], timeoutMs = 30_000): Promise<Job> {
  return waitFor(
    async () => (await core.call('jobs.list', { limit: 500 })).jobs.find((j) => j.id === id && j.state === state),
    `job ${id} to be ${state}`,
    timeoutMs,
  );
}
