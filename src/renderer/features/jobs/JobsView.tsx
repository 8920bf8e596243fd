import { useEffect, useState } from 'react';
import { shortTime } from '../../lib/format';
import type { Job, JobQueue, JobState } from '../../../shared/api';
import { JOB_QUEUES } from '../../../shared/enums';
import { usePersonas } from '../../stores/personas';
import { JobRow, STATE_LABEL, STATES } from './JobRow';
import { type JobFilter, useJobs } from './store';
import { TableHead } from '../../components/TableHead';

/**
 * One queue's jobs. Completed ones are alike and many (one per embedded
 * memory): they fold into one line unless the state filter asks for them.
 */
function QueueCard({ queue, jobs, showCompleted }: { queue: JobQueue; jobs: Job[]; showCompleted: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const done = jobs.filter((j) => j.state === 'completed');
  const fold = !showCompleted && done.length > 1;
  const rows = fold && !expanded ? jobs.filter((j) => j.state !== 'completed') : jobs;
  const latest = done.reduce<string | null>((m, j) => (j.completedAt && (!m || j.completedAt > m) ? j.completedAt : m), null);
  return (
    <div className="card job-queue" data-testid="job-queue" data-queue={queue}>
      <h2>{queue}</h2>
      <table className="jobs">
        <TableHead columns={['State', 'Worked on', 'Persona', 'Attempts', 'When', 'Error']} actions />
        <tbody>
          {rows.map((j) => (
            <JobRow key={j.id} job={j} />
          ))}
          {fold && (
            <tr className="job-fold" data-testid="job-completed-fold">
              <td colSpan={7}>
                <button className="link" aria-expanded={expanded} data-testid="job-completed-toggle" onClick={() => setExpanded(!expanded)}>
                  {expanded ? 'Hide' : 'Show'} {done.length.toLocaleString()} completed {queue} jobs
                </button>
                {latest && <span className="muted"> · the latest at {shortTime(latest)}</span>}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Which jobs the list shows: by state, by queue, this persona's or every persona's. */
function JobsFilters({ filter, setFilter, personaName }: { filter: JobFilter; setFilter(f: JobFilter): void; personaName: string }) {
  return (
    <div className="filters">
      <label>
        State
        <select data-testid="jobs-filter-state" value={filter.state ?? ''} onChange={(e) => setFilter({ ...filter, state: (e.target.value || undefined) as JobState | undefined })}>
          <option value="">Any</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Queue
        <select data-testid="jobs-filter-queue" value={filter.queue ?? ''} onChange={(e) => setFilter({ ...filter, queue: (e.target.value || undefined) as JobQueue | undefined })}>
          <option value="">All</option>
          {JOB_QUEUES.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
      </label>
      <label>
        Persona
        <select data-testid="jobs-filter-scope" value={filter.scope} onChange={(e) => setFilter({ ...filter, scope: e.target.value as 'persona' | 'all' })}>
          <option value="persona">{personaName}</option>
          <option value="all">All personas</option>
        </select>
      </label>
    </div>
  );
}

/** The durable queue: what waits, runs, failed (with errors) and the embedding backlog. */
export function JobsView() {
  const persona = usePersonas((s) => s.activeId);
  // By name: the id ("home") stays the same after a rename.
  const personaName = usePersonas((s) => s.personas.find((p) => p.id === s.activeId)?.name ?? s.activeId);
  const { summary, filter, setFilter, backfill } = useJobs();

  useEffect(() => useJobs.getState().open(persona), [persona]);

  const byQueue = new Map<JobQueue, Job[]>();
  for (const j of summary?.jobs ?? []) byQueue.set(j.queue, [...(byQueue.get(j.queue) ?? []), j]);

  return (
    <section className="view jobs-view" data-testid="jobs-view">
      <header className="view-header">
        <div>
          <h1>Jobs</h1>
          <p className="muted">Background work: embeddings, document ingestion, memory review, compaction. Failed jobs retry on their own with backoff.</p>
        </div>
      </header>
      <div className="stat-row">
        <div className="stat backlog" data-testid="embedding-backlog">
          <span className="stat-value">{summary ? summary.embeddingBacklog.toLocaleString() : '…'}</span>
          <span className="stat-label">rows without a current embedding</span>
          <button className="primary small" data-testid="backfill" onClick={() => void backfill()}>
            Backfill
          </button>
        </div>
        {(['available', 'running', 'retryable', 'discarded'] as JobState[]).map((s) => (
          <button
            key={s}
            className={`stat ${filter.state === s ? 'selected' : ''}`}
            data-testid={`job-count-${s}`}
            onClick={() => setFilter({ ...filter, state: filter.state === s ? undefined : s })}
          >
            <span className="stat-value">{summary ? (summary.counts[s] ?? 0).toLocaleString() : '…'}</span>
            <span className="stat-label">{STATE_LABEL[s]}</span>
          </button>
        ))}
      </div>
      <JobsFilters filter={filter} setFilter={setFilter} personaName={personaName} />
      {summary && summary.jobs.length === 0 ? (
        <div className="empty" data-testid="jobs-empty">
          <h2>No jobs here</h2>
          <p>Jobs appear when memories are written, documents are ingested or a backfill runs.</p>
        </div>
      ) : (
        [...byQueue].map(([queue, jobs]) => <QueueCard key={queue} queue={queue} jobs={jobs} showCompleted={filter.state === 'completed'} />)
      )}
    </section>
  );
}
