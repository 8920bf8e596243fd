import { debounce, useEvents } from '../../api/events';
import { useKnowledge } from './store';

/** Keeps ingest progress and the sources list current from pushed events. */
export function useKnowledgeLive(): void {
  useEvents((onCleanup) => {
    // Embedding jobs finish in bursts: refresh the coverage once the burst settles.
    const reloadSoon = debounce(() => void useKnowledge.getState().reload(), 400);
    onCleanup(reloadSoon.cancel);
    return {
      'ingest.progress': (e) => useKnowledge.getState().onProgress(e),
      'jobs.changed': ({ job }) => {
        useKnowledge.getState().onJob(job);
        const s = useKnowledge.getState();
        if (job.queue === 'embeddings' && job.persona === s.persona && job.state === 'completed') reloadSoon();
      },
      'knowledge.changed': (e) => {
        if (e.persona === useKnowledge.getState().persona) reloadSoon();
      },
    };
  });
}
