import { create } from 'zustand';
import type { JobQueue, JobState, JobsSummary } from '../../../shared/api';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { plural } from '../../lib/format';
import { notify, reportError } from '../../stores/toasts';

export interface JobFilter {
  state?: JobState;
  queue?: JobQueue;
  /** Only the active persona's jobs, or every persona's. */
  scope: 'persona' | 'all';
}

interface JobsState {
  persona: string | null;
  filter: JobFilter;
  summary: JobsSummary | null;
  loading: boolean;
  open(persona: string): void;
  setFilter(f: JobFilter): void;
  reload(): Promise<void>;
  /** Null when the job is back in line; else why not (a refused retry leaves the job and its error as they were). */
  retry(id: string): Promise<string | null>;
  backfill(): Promise<void>;
}

let reloadSeq = 0;
let shownSeq = 0;

export const useJobs = create<JobsState>((set, get) => ({
  persona: null,
  filter: { scope: 'persona' },
  summary: null,
  loading: false,

  open(persona) {
    set({ persona });
    void get().reload();
  },

  setFilter(filter) {
    set({ filter });
    void get().reload();
  },

  async reload() {
    const { persona, filter } = get();
    // Reloads overlap while jobs stream in: an older answer must not replace a newer one already shown.
    const mine = ++reloadSeq;
    set({ loading: true });
    try {
      const summary = await getApi().invoke('jobs.list', {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.queue ? { queue: filter.queue } : {}),
        ...(filter.scope === 'persona' && persona ? { persona } : {}),
        limit: 200,
      });
      if (mine < shownSeq) return;
      shownSeq = mine;
      set({ summary, loading: false });
    } catch (e) {
      set({ loading: false });
      reportError(e, 'Could not load jobs');
    }
  },

  async retry(id) {
    try {
      await getApi().invoke('jobs.retry', { id });
      await get().reload();
      return null;
    } catch (e) {
      return errorInfo(e).message;
    }
  },

  async backfill() {
    const { persona } = get();
    try {
      const { enqueued } = await getApi().invoke('embeddings.backfill', persona ? { persona } : {});
      notify(enqueued === 0 ? 'Nothing to backfill: every row has a current embedding.' : `Backfill enqueued ${plural(enqueued, 'embedding job')}.`);
      await get().reload();
    } catch (e) {
      reportError(e, 'Backfill failed');
    }
  },
}));
