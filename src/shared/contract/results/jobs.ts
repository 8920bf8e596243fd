import { z } from 'zod';
import { JOB_QUEUES, JOB_STATES } from '../../enums';
import { time } from './common';

export const jobProgress = z.strictObject({
  stage: z.string().describe('e.g. parsing | chunking | writing | embedding'),
  done: z.number(),
  total: z.number(),
  label: z.string().optional(),
});

export const job = z.strictObject({
  id: z.string(),
  queue: z.enum(JOB_QUEUES),
  persona: z.string().nullable(),
  state: z.enum(JOB_STATES),
  attempt: z.number(),
  maxAttempts: z.number(),
  runAt: time,
  lastError: z.string().nullable(),
  errors: z.array(z.strictObject({ attempt: z.number(), at: time, error: z.string() })),
  progress: jobProgress.nullable(),
  args: z.record(z.string(), z.unknown()),
  insertedAt: time,
  completedAt: time.nullable(),
  subject: z
    .string()
    .nullable()
    .optional()
    .describe('What it works on, in words ("notes.pdf", "“Moved to Lyon…”"): set by jobs.list, absent in events.'),
});

export const jobsSummary = z.strictObject({
  jobs: z.array(job),
  counts: z.record(z.enum(JOB_STATES), z.number()),
  embeddingBacklog: z.number().describe('Rows (memories + chunks) lacking a current-model vector.'),
});
