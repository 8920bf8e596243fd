import { useEffect } from 'react';
import { getApi } from '../../api';
import { useKnowledge } from './store';

/** Keeps ingest progress and the sources list current from pushed events. */
export function useKnowledgeLive(): void {
  useEffect(() => {
    const api = getApi();
    let timer: ReturnType<typeof setTimeout> | null = null;
    // Embedding jobs finish in bursts: refresh the coverage once the burst settles.
    const reloadSoon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void useKnowledge.getState().reload(), 400);
    };
    const offs = [
      api.on('ingest.progress', (e) => useKnowledge.getState().onProgress(e)),
      api.on('jobs.changed', ({ job }) => {
        useKnowledge.getState().onJob(job);
        const s = useKnowledge.getState();
        if (job.queue === 'embeddings' && job.persona === s.persona && job.state === 'completed') reloadSoon();
      }),
      api.on('knowledge.changed', (e) => {
        if (e.persona === useKnowledge.getState().persona) reloadSoon();
      }),
    ];
    return () => {
      if (timer) clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, []);
}
