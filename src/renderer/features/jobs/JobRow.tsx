import { useState } from 'react';
import type { Job, JobState } from '../../../shared/api';
import { readableError } from '../../lib/errors';
import { shortTime } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { useJobs } from './store';

export const STATES: JobState[] = ['available', 'running', 'retryable', 'discarded', 'completed', 'cancelled'];
export const STATE_LABEL: Record<JobState, string> = {
  available: 'queued',
  running: 'running',
  retryable: 'failed · will retry',
  discarded: 'discarded',
  completed: 'completed',
  cancelled: 'cancelled',
};

const readable = readableError;

/** Attempts in words: "2 of 6" only while more may follow; a finished job says how many it took. */
export function attemptsText(job: Job): string {
  if (job.state === 'completed') return job.attempt <= 1 ? 'first try' : `${job.attempt} tries`;
  if (job.state === 'discarded') return job.attempt >= job.maxAttempts ? `gave up after ${job.attempt}` : `stopped after ${job.attempt}: retrying cannot help`;
  if (job.state === 'cancelled') return '—';
  return `${job.attempt} of ${job.maxAttempts}`;
}

/** Progress only while the job runs (a stopped job's last progress, "parsing 0/0", means nothing); otherwise when. */
function whenText(job: Job): string {
  const p = job.progress;
  if (job.state === 'running' && p) return p.total > 0 ? `${p.label ?? p.stage} ${p.done}/${p.total}` : (p.label ?? p.stage);
  return shortTime(job.state === 'completed' ? job.completedAt : job.runAt);
}

/** One job: state, attempts, when, its last error (click for every attempt's), retry. */
export function JobRow({ job }: { job: Job }) {
  const [open, setOpen] = useState(false);
  // A refused retry is said on the row, under the job's own error (which it must not replace).
  const [refused, setRefused] = useState<string | null>(null);
  // Shown by name: an id ("home") stays the same after a rename, the name is what the person knows.
  const personaName = usePersonas((s) => s.personas.find((p) => p.id === job.persona)?.name);
  const canRetry = job.state === 'retryable' || job.state === 'discarded';
  return (
    <>
      <tr data-testid="job-row" data-job-id={job.id} data-state={job.state} data-queue={job.queue}>
        <td>
          <span className={`badge state-${job.state}`} data-testid="job-state">
            {STATE_LABEL[job.state]}
          </span>
        </td>
        <td className="job-subject" data-testid="job-subject" dir="auto">
          {job.subject ?? <span className="muted">—</span>}
        </td>
        <td>{personaName ?? job.persona ?? '—'}</td>
        <td data-testid="job-attempts">{attemptsText(job)}</td>
        <td data-testid="job-when">{whenText(job)}</td>
        <td className="job-error" data-testid="job-error">
          {job.lastError ? (
            <button className="link" onClick={() => setOpen(!open)} title="Show every attempt's error">
              {readable(job.lastError)}
            </button>
          ) : (
            <span className="muted">—</span>
          )}
        </td>
        <td>
          {canRetry && !refused && (
            <button className="ghost small" data-testid="job-retry" onClick={() => void useJobs.getState().retry(job.id).then(setRefused)}>
              Retry now
            </button>
          )}
        </td>
      </tr>
      {refused && (
        <tr className="job-refused">
          <td colSpan={7} role="alert" data-testid="job-retry-refused" dir="auto">
            Not retried: {refused}
          </td>
        </tr>
      )}
      {open && job.errors.length > 0 && (
        <tr className="job-errors">
          <td colSpan={7}>
            <ol>
              {job.errors.map((e) => (
                <li key={`${e.attempt}-${e.at}`}>
                  attempt {e.attempt} · {shortTime(e.at)} · {readable(e.error)}
                </li>
              ))}
            </ol>
          </td>
        </tr>
      )}
    </>
  );
}

