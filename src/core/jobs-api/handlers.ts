import { jobArgs } from '../../shared/contract/jobs';
import { AppError } from '../../shared/errors';
import { countBacklog } from '../embeddings/backlog';
import { getJob, jobState, listJobs, retryJob } from '../jobs/list';
import { toJob } from '../jobs/row';
import { handler } from '../method';

export const jobHandlers = {
  'jobs.list': handler(
    jobArgs['jobs.list'],
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

  'jobs.retry': handler(jobArgs['jobs.retry'], async (args, ctx) => {
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
