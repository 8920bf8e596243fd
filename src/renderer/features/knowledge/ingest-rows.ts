import type { Events, Job } from '../../../shared/api';
import type { Ingest, KnowledgeGet, KnowledgeSet } from './state';

/**
 * What the ingest rows remember between the ingest call and the job's events, which can arrive in
 * either order: jobs that ended before their call answered, and progress for a file still being sent.
 */
export interface IngestRows {
  newKey(): string;
  /** Jobs that ended before their ingest call answered (a small text file can). */
  endedEarly: Map<string, Job>;
  /**
   * Progress for a file this window is still sending (the job can start before the ingest call answers):
   * held until the answer names its job, so the file keeps one row instead of a second, "started
   * elsewhere" one beside its "sending…" row. Keyed by job id; the newest progress wins.
   */
  heldProgress: Map<string, Events['ingest.progress']>;
  sending(persona: string, source: string): boolean;
  /** Shows what was held for `source` once no row of it is still sending (another window's job, say). */
  releaseHeld(persona: string, source: string): void;
  patch(key: string, p: Partial<Ingest>): void;
}

export function ingestRows(set: KnowledgeSet, get: KnowledgeGet): IngestRows {
  let nextKey = 1;
  const heldProgress = new Map<string, Events['ingest.progress']>();
  const sending = (persona: string, source: string) =>
    get().ingests.some((i) => i.jobId === null && i.state === 'uploading' && i.persona === persona && i.source === source);
  return {
    newKey: () => `i${nextKey++}`,
    endedEarly: new Map<string, Job>(),
    heldProgress,
    sending,
    releaseHeld(persona, source) {
      if (sending(persona, source)) return;
      for (const [jobId, e] of [...heldProgress]) {
        if (e.persona !== persona || e.source !== source) continue;
        heldProgress.delete(jobId);
        get().onProgress(e);
      }
    },
    patch: (key, p) => set((s) => ({ ingests: s.ingests.map((i) => (i.key === key ? { ...i, ...p } : i)) })),
  };
}
