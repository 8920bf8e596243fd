import { getApi } from '../../api';
import { errorInfo, readableError } from '../../lib/errors';
import { ingestArgs } from './files';
import type { IngestRows } from './ingest-rows';
import type { Ingest, KnowledgeGet, KnowledgeSet, KnowledgeState } from './state';

/** Sending files in: one row per file, from the upload until its job completes or fails. */
export function ingestActions(set: KnowledgeSet, get: KnowledgeGet, rows: IngestRows): Pick<KnowledgeState, 'ingestFiles' | 'dismiss'> {
  const { endedEarly, heldProgress, patch } = rows;
  return {
    async ingestFiles(persona, files, asName) {
      for (const file of files) {
        const key = rows.newKey();
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
        rows.releaseHeld(persona, source);
      }
    },

    dismiss(key) {
      set((s) => ({ ingests: s.ingests.filter((i) => i.key !== key) }));
    },
  };
}

/** The ingest jobs' events (progress, end, retry) on the rows, including jobs started elsewhere. */
export function progressActions(set: KnowledgeSet, get: KnowledgeGet, rows: IngestRows): Pick<KnowledgeState, 'onProgress' | 'onJob'> {
  const { endedEarly, heldProgress, patch } = rows;
  return {
    onProgress(e) {
      const known = get().ingests.find((i) => i.jobId === e.jobId);
      if (known) patch(known.key, { progress: e.progress, state: 'running' });
      else if (rows.sending(e.persona, e.source)) {
        heldProgress.set(e.jobId, e);
        if (heldProgress.size > 50) heldProgress.delete(heldProgress.keys().next().value ?? '');
      } else {
        // Started elsewhere (another window, the model's tool): show it too.
        const ingest: Ingest = { key: rows.newKey(), jobId: e.jobId, persona: e.persona, source: e.source, state: 'running', progress: e.progress, error: null };
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
}
