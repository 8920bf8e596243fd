import { z } from 'zod';
import { WATCH_FILE_STATES } from '../../enums';
import { time } from './common';

export const knowledgeSource = z.strictObject({
  source: z.string(),
  chunks: z.number(),
  chars: z.number(),
  embedded: z.number().describe('Chunks with a current-model vector.'),
  kind: z.string().nullable().describe('pdf | markdown | text'),
  bytes: z.number().nullable(),
  pages: z.number().nullable(),
  ingestedAt: time,
});

/** One document file of a watched folder and how its latest change went (docs/watched-folders.md). */
export const watchedFile = z.strictObject({
  path: z.string().describe("Inside the folder, '/'-separated."),
  source: z.string().describe('The knowledge source it becomes: "<watch label>/<path>".'),
  state: z.enum(WATCH_FILE_STATES),
  error: z.string().nullable().describe('Why the file could not be ingested, naming it.'),
  updatedAt: time,
});

/** A folder a persona keeps ingested. */
export const folderWatch = z.strictObject({
  folder: z.string().describe("The folder's real path."),
  label: z.string().describe("What its files' source names start with."),
  status: z
    .enum(['watching', 'missing'])
    .describe("'missing': the folder cannot be read now (unplugged, renamed); nothing of it is removed until it is back."),
  counts: z.record(z.enum(WATCH_FILE_STATES), z.number()),
  files: z
    .array(watchedFile)
    .describe('Errors first, then files in progress, then the latest ingested: at most 200.'),
});
