import { z } from 'zod';
import { JOB_QUEUES, JOB_STATES } from '../enums';
import { personaId } from './fields';

const jobId = z.string().regex(/^\d{1,18}$/, 'a job id is a number');

export const jobArgs = {
  'embeddings.backfill': z.object({ persona: personaId.optional() }).strict(),
  'jobs.list': z
    .object({
      state: z.enum(JOB_STATES).optional(),
      queue: z.enum(JOB_QUEUES).optional(),
      persona: personaId.optional(),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict(),
  'jobs.retry': z.object({ id: jobId }).strict(),
};
