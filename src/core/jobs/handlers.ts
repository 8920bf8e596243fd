import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { countBacklog } from '../embeddings/store';
import { handler } from '../handler';
import { personaId } from '../schemas';
import { jobState, listJobs, retryJob } from './list';
import { toJob } from './row';

const queue = z.enum(['embeddings', 'ingest', 'memory_review', 'compaction']);
const jobId = z.string().regex(/^\d{1,18}$/, 'a job id is a number');

export const jobHandlers = {
  'jobs.list': handler(
    z
      .object({
        state: z.enum(['available', 'running', 'completed', 'retryable', 'discarded', 'cancelled']).optional(),
        queue: queue.optional(),
        persona: personaId.optional(),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    async (args, ctx) => {
      const listed = await listJobs(ctx.db, {
        state: args.state,
        queue: args.queue,
        persona: args.persona,
        limit: args.limit,
      });
      return { ...listed, embeddingBacklog: await countBacklog(ctx.db, ctx.embeddingModel(), args.persona ?? null) };
    },
  ),

  'jobs.retry': handler(z.object({ id: jobId }).strict(), async (args, ctx) => {
    const row = await retryJob(ctx.db, args.id);
    if (!row) {
      const state = await jobState(ctx.db, args.id);
      if (!state) throw new AppError('not_found', `There is no job ${args.id}.`);
      throw new AppError('conflict', `Job ${args.id} is ${state}; only a failed (discarded) or waiting (retryable) job can be retried.`);
    }
    const job = toJob(row);
    ctx.events.emit('jobs.changed', { job });
    ctx.wakeJobs();
    return job;
  }),
};
