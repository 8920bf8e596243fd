import { debounce, throttle, useEvents } from '../../api/events';
import { useKnowledge } from './store';
import { useWatches } from './watch-store';

/** Keeps ingest progress and the sources list current from pushed events. */
export function useKnowledgeLive(): void {
  useEvents((onCleanup) => {
    // Embedding jobs finish in bursts: refresh the coverage once the burst settles.
    const reloadSoon = debounce(() => void useKnowledge.getState().reload(), 400);
    const reloadWatches = throttle(() => void useWatches.getState().reload(), 500);
    onCleanup(() => [reloadSoon, reloadWatches].forEach((d) => d.cancel()));
    return {
      'ingest.progress': (e) => useKnowledge.getState().onProgress(e),
      'jobs.changed': ({ job }) => {
        useKnowledge.getState().onJob(job);
        const s = useKnowledge.getState();
        if (job.queue === 'embeddings' && job.persona === s.persona && job.state === 'completed') reloadSoon();
      },
      'knowledge.watch': (e) => {
        if (e.persona === useWatches.getState().persona) reloadWatches();
      },
      'knowledge.changed': (e) => {
        if (e.persona === useKnowledge.getState().persona) reloadSoon();
      },
    };
  });
}
