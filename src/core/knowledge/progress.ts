import type { JobProgress } from '../../shared/api';
import type { CoreContext } from '../context';
import type { JobContext } from '../jobs/types';

/**
 * Sends an ingest job's progress to the job row and as `ingest.progress`.
 * Page ticks are throttled (a PDF parses at 100+ pages/s; one UPDATE each
 * would be a waste); stage changes and the last page always go out, in order.
 */
export function progressReporter(ctx: CoreContext, jc: JobContext, persona: string, source: string, minIntervalMs = 200) {
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  let last = 0;
  const send = (p: JobProgress) => {
    last = Date.now();
    ctx.events.emit('ingest.progress', { persona, source, jobId: jc.job.id, progress: p });
    // Kept, not thrown here: page ticks are fire-and-forget, flush() reports it.
    chain = chain.then(() => jc.progress(p)).catch((e: unknown) => {
      failure ??= e;
    });
  };
  const flush = async () => {
    await chain;
    if (failure) throw failure;
  };
  return {
    async stage(p: JobProgress) {
      send(p);
      await flush();
    },
    page(page: number, pages: number) {
      if (page < pages && Date.now() - last < minIntervalMs) return;
      send({ stage: 'parsing', done: page, total: pages, label: `parsing page ${page}/${pages}` });
    },
    /** Waits for every queued progress write; rethrows the first failure. */
    flush,
  };
}
