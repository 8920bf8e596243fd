import type { Job, JobProgress, JobQueue, JobState } from '../../shared/api';
import { toIso } from '../time';

export const JOB_COLUMNS = `id, queue, persona, state, attempt, max_attempts, run_at, last_error, errors,
  progress, args, inserted_at, completed_at`;

export interface JobRow {
  id: number | string;
  queue: JobQueue;
  persona: string | null;
  state: JobState;
  attempt: number;
  max_attempts: number;
  run_at: Date;
  last_error: string | null;
  errors: Job['errors'];
  progress: JobProgress | null;
  args: Record<string, unknown>;
  inserted_at: Date;
  completed_at: Date | null;
}

export function toJob(r: JobRow): Job {
  return {
    id: String(r.id),
    queue: r.queue,
    persona: r.persona,
    state: r.state,
    attempt: r.attempt,
    maxAttempts: r.max_attempts,
    runAt: toIso(r.run_at),
    lastError: r.last_error,
    errors: r.errors ?? [],
    progress: r.progress,
    args: r.args ?? {},
    insertedAt: toIso(r.inserted_at),
    completedAt: r.completed_at ? toIso(r.completed_at) : null,
  };
}
