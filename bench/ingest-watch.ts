import type { Core } from '../src/core/index';
import type { Job } from '../src/shared/api';

/**
 * Follows ingest jobs through the core's `jobs.changed` events (no polling, so
 * the wait adds nothing to the database thread being measured). Subscribe
 * before enqueueing, so that a job settling at once is not missed.
 */
export function watchIngests(core: Core): { settled(ids: string[]): Promise<Job[]>; stop(): void } {
  const done = new Map<string, Job>();
  let wake: (() => void) | null = null;
  const stop = core.events.subscribe((name, payload) => {
    if (name !== 'jobs.changed') return;
    const { job } = payload as { job: Job };
    if (job.queue === 'ingest' && (job.state === 'completed' || job.state === 'discarded')) done.set(job.id, job);
    wake?.();
  });
  return {
    async settled(ids) {
      while (!ids.every((id) => done.has(id))) await new Promise<void>((r) => (wake = r));
      return ids.map((id) => done.get(id)!);
    },
    stop,
  };
}
