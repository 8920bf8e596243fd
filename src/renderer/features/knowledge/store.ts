import { create } from 'zustand';
import type { Events, Job, JobProgress, KnowledgeSource, RecallHit } from '../../../shared/api';
import { getApi } from '../../api';
import { errorInfo, readableError } from '../../lib/errors';
import { plural } from '../../lib/format';
import { notify, reportError, useToasts } from '../../stores/toasts';

const UNDO_MS = 6000;
import { ingestArgs } from './files';

/** A file on its way in: from the drop until its job completes or fails. */
export interface Ingest {
  key: string;
  jobId: string | null;
  persona: string;
  source: string;
  state: 'uploading' | 'queued' | 'running' | 'retrying' | 'failed';
  progress: JobProgress | null;
  error: string | null;
}

/** A dropped file whose name is already a source: the person chooses Replace or Keep both. */
export interface NameConflict {
  persona: string;
  file: File;
  /** Every source name the persona has, for picking a free name. */
  taken: string[];
}

/** "handbook.pdf" → "handbook (2).pdf", the first such name not taken. */
export function freeName(name: string, taken: string[]): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const used = new Set(taken);
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!used.has(candidate)) return candidate;
  }
}

interface KnowledgeState {
  persona: string | null;
  sources: KnowledgeSource[];
  loaded: boolean;
  ingests: Ingest[];
  query: string;
  hits: RecallHit[] | null;
  searching: boolean;
  open(persona: string): void;
  reload(): Promise<void>;
  /** Files the person added: new names go in at once, taken names wait in `conflicts` for a choice. */
  addFiles(persona: string, files: File[]): Promise<void>;
  conflicts: NameConflict[];
  resolveConflict(choice: 'replace' | 'keep-both' | 'skip'): void;
  ingestFiles(persona: string, files: File[], asName?: string): Promise<void>;
  remove(source: string): Promise<boolean>;
  search(query: string): Promise<void>;
  dismiss(key: string): void;
  onProgress(e: Events['ingest.progress']): void;
  onJob(job: Job): void;
}

export const useKnowledge = create<KnowledgeState>((set, get) => {
  let nextKey = 1;
  // Jobs that ended before their ingest call answered (a small text file can).
  const endedEarly = new Map<string, Job>();
  // Progress for a file this window is still sending (the job can start before the ingest call answers):
  // held until the answer names its job, so the file keeps one row instead of a second, "started
  // elsewhere" one beside its "sending…" row. Keyed by job id; the newest progress wins.
  const heldProgress = new Map<string, Events['ingest.progress']>();
  const sending = (persona: string, source: string) =>
    get().ingests.some((i) => i.jobId === null && i.state === 'uploading' && i.persona === persona && i.source === source);
  /** Shows what was held for `source` once no row of it is still sending (another window's job, say). */
  const releaseHeld = (persona: string, source: string) => {
    if (sending(persona, source)) return;
    for (const [jobId, e] of [...heldProgress]) {
      if (e.persona !== persona || e.source !== source) continue;
      heldProgress.delete(jobId);
      get().onProgress(e);
    }
  };
  const patch = (key: string, p: Partial<Ingest>) =>
    set((s) => ({ ingests: s.ingests.map((i) => (i.key === key ? { ...i, ...p } : i)) }));

  return {
    persona: null,
    sources: [],
    loaded: false,
    ingests: [],
    query: '',
    hits: null,
    searching: false,
    conflicts: [],

    async addFiles(persona, files) {
      let taken: string[];
      try {
        // Read fresh: the drop may come from another view, for a persona whose sources are not loaded.
        taken = (await getApi().invoke('knowledge.listSources', { persona })).map((x) => x.source);
      } catch (e) {
        reportError(e, 'Could not check the knowledge sources');
        return;
      }
      const names = new Set(taken);
      const fresh = files.filter((f) => !names.has(f.name));
      const clashing = files.filter((f) => names.has(f.name));
      if (clashing.length) set((s) => ({ conflicts: [...s.conflicts, ...clashing.map((file) => ({ persona, file, taken }))] }));
      if (fresh.length) await get().ingestFiles(persona, fresh);
    },

    resolveConflict(choice) {
      const [first, ...rest] = get().conflicts;
      if (!first) return;
      set({ conflicts: rest });
      if (choice === 'replace') void get().ingestFiles(first.persona, [first.file], first.file.name);
      if (choice === 'keep-both') {
        const taken = [...first.taken, ...get().ingests.map((i) => i.source)];
        void get().ingestFiles(first.persona, [first.file], freeName(first.file.name, taken));
      }
    },

    open(persona) {
      if (get().persona !== persona) set({ persona, sources: [], loaded: false, query: '', hits: null });
      void get().reload();
    },

    async reload() {
      const persona = get().persona;
      if (!persona) return;
      try {
        const sources = await getApi().invoke('knowledge.listSources', { persona });
        if (get().persona === persona) set({ sources, loaded: true });
      } catch (e) {
        set({ loaded: true });
        reportError(e, 'Could not list the knowledge sources');
      }
    },

    async ingestFiles(persona, files, asName) {
      for (const file of files) {
        const key = `i${nextKey++}`;
        const source = asName ?? file.name;
        set((s) => ({ ingests: [...s.ingests, { key, jobId: null, persona, source, state: 'uploading', progress: null, error: null }] }));
        try {
          const res = await getApi().invoke('knowledge.ingest', await ingestArgs(persona, file, asName));
          // Progress may have arrived before the answer: merge that entry into this one.
          const early = get().ingests.find((i) => i.jobId === res.jobId && i.key !== key);
          set((s) => ({ ingests: s.ingests.filter((i) => i !== early) }));
          const held = heldProgress.get(res.jobId);
          heldProgress.delete(res.jobId);
          patch(key, {
            jobId: res.jobId,
            source: res.source,
            state: early?.state ?? (held ? 'running' : 'queued'),
            progress: early?.progress ?? held?.progress ?? null,
          });
          const ended = endedEarly.get(res.jobId);
          if (ended) get().onJob(ended);
        } catch (e) {
          // Said once, on the file's own row (it stays until dismissed), not again in a toast.
          patch(key, { state: 'failed', error: errorInfo(e).message });
        }
        releaseHeld(persona, source);
      }
    },

    async remove(source) {
      const persona = get().persona;
      if (!persona) return false;
      try {
        const { deleted, trashId } = await getApi().invoke('knowledge.deleteSource', { persona, source });
        useToasts.getState().push({
          kind: 'info',
          message: `Deleted "${source}" (${plural(deleted, 'chunk')}); it is in the trash.`,
          ttl: UNDO_MS,
          ...(trashId
            ? {
                action: {
                  label: 'Undo',
                  run: () =>
                    void getApi()
                      .invoke('trash.restore', { id: trashId })
                      .then(() => (get().persona === persona ? get().reload() : undefined))
                      .catch((e: unknown) => reportError(e, `Could not restore "${source}"`)),
                },
              }
            : {}),
        });
        set((s) => ({ sources: s.sources.filter((x) => x.source !== source) }));
        return true;
      } catch (e) {
        reportError(e, `Could not delete "${source}"`);
        return false;
      }
    },

    async search(query) {
      const persona = get().persona;
      set({ query });
      if (!persona || !query.trim()) {
        set({ hits: null, searching: false });
        return;
      }
      set({ searching: true });
      try {
        const hits = await getApi().invoke('recall', { persona, query, limit: 10, kinds: ['knowledge'] });
        if (get().query === query) set({ hits });
      } catch (e) {
        reportError(e, 'Search failed');
      } finally {
        if (get().query === query) set({ searching: false });
      }
    },

    dismiss(key) {
      set((s) => ({ ingests: s.ingests.filter((i) => i.key !== key) }));
    },

    onProgress(e) {
      const known = get().ingests.find((i) => i.jobId === e.jobId);
      if (known) patch(known.key, { progress: e.progress, state: 'running' });
      else if (sending(e.persona, e.source)) {
        heldProgress.set(e.jobId, e);
        if (heldProgress.size > 50) heldProgress.delete(heldProgress.keys().next().value ?? '');
      } else {
        // Started elsewhere (another window, the model's tool): show it too.
        const ingest: Ingest = { key: `i${nextKey++}`, jobId: e.jobId, persona: e.persona, source: e.source, state: 'running', progress: e.progress, error: null };
        set((s) => ({ ingests: [...s.ingests, ingest] }));
      }
    },

    onJob(job) {
      if (job.queue !== 'ingest') return;
      const known = get().ingests.find((i) => i.jobId === job.id);
      if (!known) {
        if (['completed', 'discarded', 'cancelled'].includes(job.state)) {
          endedEarly.set(job.id, job);
          if (endedEarly.size > 50) endedEarly.delete(endedEarly.keys().next().value ?? '');
        }
        return;
      }
      if (job.state === 'completed' || job.state === 'cancelled') {
        get().dismiss(known.key);
        if (job.persona === get().persona) void get().reload();
      } else if (job.state === 'discarded') {
        // The row says why (and stays until dismissed); a toast would say it a second time.
        patch(known.key, { state: 'failed', error: job.lastError ? readableError(job.lastError) : 'The file could not be added (no reason was recorded).', progress: null });
      } else if (job.state === 'retryable') {
        patch(known.key, { state: 'retrying', error: job.lastError && readableError(job.lastError) });
      } else if (job.state === 'running') {
        patch(known.key, { state: 'running' });
      }
    },
  };
});
