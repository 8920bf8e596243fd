import { z } from 'zod';
import { time } from './common';

/** What a delete put in the persona's trash (docs/trash.md). */
export const TRASH_KINDS = ['memory', 'user_model', 'knowledge_source'] as const;

export const trashItem = z.strictObject({
  id: z.string().describe("The id `trash.restore` takes; for a memory, the memory's own id."),
  persona: z.string(),
  kind: z.enum(TRASH_KINDS),
  key: z.string().describe("The memory id, the dimension or the document's name."),
  what: z.string().describe("What a person reads: the memory's text, the dimension, the document's name."),
  deletedAt: time,
  deletedBy: z.string().nullable(),
  purgeAt: time.describe('When the daily purge removes it for good (`trashDays` after the delete).'),
});
