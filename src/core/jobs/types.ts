import type { Job, JobProgress, JobQueue } from '../../shared/api';
import type { CoreContext } from '../context';

/** What a job's work gets besides its arguments. */
export interface JobContext {
  job: Job;
  /** Aborted when the core closes; long work should stop at the next check. */
  signal: AbortSignal;
  /** Records progress on the job row and pushes it to the UI. */
  progress(p: JobProgress): Promise<void>;
}

/** The work of one queue. Throwing fails the attempt (retried with backoff, then discarded). */
export type JobWork = (args: Record<string, unknown>, jc: JobContext, ctx: CoreContext) => Promise<void>;

export interface QueueDef {
  work: JobWork;
  /** How many jobs of this queue may run at once. */
  concurrency: number;
  /** Called once when a job is discarded (its last attempt failed), e.g. to mark rows as failed. */
  onDiscard?: (args: Record<string, unknown>, error: string, ctx: CoreContext) => Promise<void>;
  /**
   * Asked before a person's "Retry now": why retrying cannot work (said as is, the job left as it was),
   * or null to retry. A retry that can only fail would also bury the job's original error.
   */
  retryRefusal?: (args: Record<string, unknown>, ctx: CoreContext) => Promise<string | null>;
}

export type QueueDefs = Partial<Record<JobQueue, QueueDef>>;
