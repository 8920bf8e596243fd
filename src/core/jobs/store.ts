import type { JobProgress, JobQueue } from '../../shared/api';
import type { Queryable } from '../db/client';
import { JOB_COLUMNS, type JobRow } from './row';

// The SQL of the job runner. Every state change is one UPDATE … RETURNING. On
// PGlite there is one connection, so a job can never be claimed twice; on a
// server several Hearths claim from one table (docs/server-mode.md): a claim
// skips rows another one has locked, and checks the state again on the row it
// locked, so two claims at the same moment never take the same job.

/**
 * Claims up to `limit` due jobs of a queue: available (new) or retryable whose time has come.
 * `leaseMs`: on a shared server, how long the claim holds before others may take the job back
 * unless it is renewed (renewLeases); null on PGlite (one owner).
 */
export async function claimJobs(q: Queryable, queue: JobQueue, limit: number, leaseMs: number | null = null): Promise<JobRow[]> {
  const { rows } = await q.query<JobRow>(
    `UPDATE jobs SET state = 'running', attempt = attempt + 1, attempted_at = now(), progress = NULL,
       lease_until = now() + $3::double precision * interval '1 millisecond'
     WHERE id IN (
       SELECT id FROM jobs
       WHERE queue = $1 AND state IN ('available', 'retryable') AND run_at <= now()
       ORDER BY run_at, id LIMIT $2
       FOR UPDATE SKIP LOCKED
     ) AND state IN ('available', 'retryable')
     RETURNING ${JOB_COLUMNS}`,
    [queue, limit, leaseMs],
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Extends the leases of jobs this Hearth is running (shared server only). */
export async function renewLeases(q: Queryable, ids: string[], leaseMs: number): Promise<void> {
  if (!ids.length) return;
  await q.query(
    `UPDATE jobs SET lease_until = now() + $2::double precision * interval '1 millisecond'
     WHERE id = ANY($1::bigint[]) AND state = 'running'`,
    [ids, leaseMs],
  );
}

export async function completeJob(q: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(
    `UPDATE jobs SET state = 'completed', completed_at = now(), last_error = NULL
     WHERE id = $1 AND state = 'running' RETURNING ${JOB_COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Records a failed attempt: retryable after `delayMs`, or discarded when no
 * attempt is left or the failure is `permanent` (retrying cannot help).
 */
export async function failJob(q: Queryable, id: string, error: string, delayMs: number, permanent = false): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(
    `UPDATE jobs SET
       state = CASE WHEN attempt >= max_attempts OR $4 THEN 'discarded' ELSE 'retryable' END,
       run_at = CASE WHEN attempt >= max_attempts OR $4 THEN run_at ELSE now() + make_interval(secs => $3::float8 / 1000) END,
       completed_at = CASE WHEN attempt >= max_attempts OR $4 THEN now() END,
       last_error = $2,
       errors = errors || jsonb_build_array(jsonb_build_object('attempt', attempt, 'at', now(), 'error', $2::text))
     WHERE id = $1 AND state = 'running' RETURNING ${JOB_COLUMNS}`,
    [id, error, delayMs, permanent],
  );
  return rows[0] ?? null;
}

/** A job stopped by our own shutdown: back in line, the interrupted attempt not counted. */
export async function releaseJob(q: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(
    `UPDATE jobs SET state = 'available', attempt = greatest(attempt - 1, 0), progress = NULL
     WHERE id = $1 AND state = 'running' RETURNING ${JOB_COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

/** How many times a job may be cut off by the process stopping before it is given up. */
export const MAX_CRASHES = 5;

/**
 * At start-up nothing runs yet, so a `running` job was cut off by a crash or a
 * kill. It goes back in line without spending the attempt (a stop of the
 * whole app is no fault of the job); the stop is counted apart, and a job cut
 * off MAX_CRASHES times, which may itself be what brings Hearth down, is
 * discarded with a message saying so. Each stop is written into its history.
 */
/**
 * Puts jobs left `running` by a Hearth that stopped back in line. `expiredOnly`
 * (a shared server): only jobs whose lease ran out — the others are held by a
 * Hearth that is running them now.
 */
export async function recoverInterrupted(q: Queryable, expiredOnly = false): Promise<JobRow[]> {
  const { rows } = await q.query<JobRow>(
    `WITH cut AS (
       SELECT id, attempt, crashes + 1 AS crashes,
         CASE WHEN crashes + 1 >= $1
           THEN format('discarded: Hearth stopped %s times while this job ran (it may be what stops Hearth); retry it from Jobs once the cause is fixed', crashes + 1)
           ELSE format('interrupted: Hearth stopped while this job ran (stop %s of %s allowed; the attempt is not counted)', crashes + 1, $1)
         END AS message
       FROM jobs WHERE state = 'running' AND ($2::boolean IS FALSE OR lease_until IS NULL OR lease_until < now())
       FOR UPDATE SKIP LOCKED
     )
     UPDATE jobs j SET
       crashes = cut.crashes,
       attempt = greatest(j.attempt - 1, 0),
       state = CASE WHEN cut.crashes >= $1 THEN 'discarded' ELSE 'available' END,
       completed_at = CASE WHEN cut.crashes >= $1 THEN now() END,
       last_error = cut.message,
       errors = j.errors || jsonb_build_array(jsonb_build_object('attempt', cut.attempt, 'at', now(), 'error', cut.message)),
       progress = NULL
     FROM cut WHERE j.id = cut.id AND j.state = 'running'
     RETURNING ${JOB_COLUMNS.split(',').map((c) => `j.${c.trim()}`).join(', ')}`,
    [MAX_CRASHES, expiredOnly],
  );
  return rows;
}

export async function setProgress(q: Queryable, id: string, p: JobProgress): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(
    `UPDATE jobs SET progress = $2 WHERE id = $1 AND state = 'running' RETURNING ${JOB_COLUMNS}`,
    [id, JSON.stringify(p)],
  );
  return rows[0] ?? null;
}

/** Milliseconds until the next waiting job of these queues is due (null: none waiting). */
export async function msUntilNextDue(q: Queryable, queues: JobQueue[]): Promise<number | null> {
  const { rows } = await q.query<{ ms: number | null }>(
    `SELECT extract(epoch FROM (min(run_at) - now())) * 1000 AS ms FROM jobs
     WHERE queue = ANY($1::text[]) AND state IN ('available', 'retryable')`,
    [queues],
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, Number(ms));
}
