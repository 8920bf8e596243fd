import type { JobQueue, JobState, JobsSummary } from '../../shared/api';
import { JOB_STATES } from '../../shared/enums';
import type { Db, Queryable } from '../db/client';
import { JOB_COLUMNS, type JobRow, toJob } from './row';
import { jobSubjects } from './subject';

export interface JobFilter {
  state?: JobState;
  queue?: JobQueue;
  persona?: string;
  limit: number;
}

/** Newest first; the counts by state ignore the state filter (they label the tabs). */
export async function listJobs(db: Db, f: JobFilter): Promise<Omit<JobsSummary, 'embeddingBacklog'>> {
  // One transaction: the list and the counts describe the same moment.
  return db.transaction((q) => listJobsIn(q, f));
}

async function listJobsIn(q: Queryable, f: JobFilter): Promise<Omit<JobsSummary, 'embeddingBacklog'>> {
  const params = [f.queue ?? null, f.persona ?? null];
  const where = '($1::text IS NULL OR queue = $1) AND ($2::text IS NULL OR persona = $2)';
  const { rows } = await q.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${where} AND ($3::text IS NULL OR state = $3)
     ORDER BY id DESC LIMIT $4`,
    [...params, f.state ?? null, f.limit],
  );
  const { rows: counted } = await q.query<{ state: JobState; n: number }>(
    `SELECT state, count(*) AS n FROM jobs WHERE ${where} GROUP BY state`,
    params,
  );
  const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
  for (const c of counted) counts[c.state] = Number(c.n);
  return { jobs: await jobSubjects(q, rows.map(toJob)), counts };
}

/** Puts a failed or waiting job back in line now; a discarded one gets one more attempt. */
export async function retryJob(q: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(
    // The person retrying has dealt with what stopped it: crashes count afresh.
    `UPDATE jobs SET state = 'available', run_at = now(), completed_at = NULL, crashes = 0,
       max_attempts = greatest(max_attempts, attempt + 1)
     WHERE id = $1 AND state IN ('discarded', 'retryable') RETURNING ${JOB_COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function getJob(q: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function jobState(q: Queryable, id: string): Promise<JobState | null> {
  const { rows } = await q.query<{ state: JobState }>('SELECT state FROM jobs WHERE id = $1', [id]);
  return rows[0]?.state ?? null;
}
