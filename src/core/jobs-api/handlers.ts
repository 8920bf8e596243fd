import { z } from 'zod';
import { JOB_QUEUES, JOB_STATES } from '../../shared/enums';
import { AppError } from '../../shared/errors';
import { countBacklog } from '../embeddings/backlog';
import { getJob, jobState, listJobs, retryJob } from '../jobs/list';
import { toJob } from '../jobs/row';
import { handler } from '../method';
import { personaId } from '../schemas';

const jobId = z.string().regex(/^\d{1,18}$/, 'a job id is a number');

export const jobHandlers = {
  'jobs.list': handler(
    z
      .object({
        state: z.enum(JOB_STATES).optional(),
        queue: z.enum(JOB_QUEUES).optional(),
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
      return { ...listed, embeddingBacklog: await countBacklog(ctx.db, ctx.embedder.model(), args.persona ?? null) };
    },
  ),

  'jobs.retry': handler(z.object({ id: jobId }).strict(), async (args, ctx) => {
    const before = await getJob(ctx.db, args.id);
    const retryable = before?.state === 'discarded' || before?.state === 'retryable';
    const refusal = retryable && (await ctx.queues[before!.queue]?.retryRefusal?.(before!.args, ctx));
    if (refusal) throw new AppError('conflict', refusal);
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
