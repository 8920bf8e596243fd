import type { JobQueue } from '../../shared/api';
import type { Queryable } from '../db/client';

export interface NewJob {
  queue: JobQueue;
  persona: string | null;
  args: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Adds a job. Pass the transaction that writes the row the job concerns, so
 * the row and its job commit (or vanish) together.
 */
export async function enqueueJob(q: Queryable, job: NewJob): Promise<string> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO jobs (queue, persona, args, run_at, max_attempts)
     VALUES ($1, $2, $3, coalesce($4, now()), coalesce($5, 6)) RETURNING id`,
    [job.queue, job.persona, JSON.stringify(job.args), job.runAt ?? null, job.maxAttempts ?? null],
  );
  return String(rows[0]!.id);
}
