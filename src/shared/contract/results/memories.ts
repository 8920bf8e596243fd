import { z } from 'zod';
import { memoryShape } from '../memories';
import { actor, day, time } from './common';

/** What a memory version records: who changed it (docs/history.md). */
export const MEMORY_CHANGES = ['create', 'update', 'restore', 'supersede', 'unsupersede', 'delete', 'undelete'] as const;
export const USER_MODEL_CHANGES = ['upsert', 'restore', 'delete'] as const;

/** One state a memory has been in, from `validFrom` until `validTo` (null: current). */
export const memoryVersion = z.strictObject({
  memoryId: z.string(),
  persona: z.string(),
  version: z.number(),
  change: z.enum(MEMORY_CHANGES),
  content: z.string(),
  category: z.string().nullable(),
  importance: z.number(),
  day,
  supersededBy: z.string().nullable(),
  actor: actor.nullable().describe('null only for versions older than history itself (docs/history.md).'),
  conversationId: z.string().nullable(),
  reason: z.string().nullable(),
  validFrom: time,
  validTo: time.nullable(),
});

/** One state of a user-model dimension; content and confidence are null for a deletion. */
export const userModelVersion = z.strictObject({
  persona: z.string(),
  dimension: z.string(),
  version: z.number(),
  change: z.enum(USER_MODEL_CHANGES),
  content: z.string().nullable(),
  confidence: z.number().nullable(),
  actor: actor.nullable(),
  conversationId: z.string().nullable(),
  reason: z.string().nullable(),
  validFrom: time,
  validTo: time.nullable(),
});

/** One line of the activity log: a memory or user-model version, newest first. */
export const activityItem = z.discriminatedUnion('kind', [
  memoryVersion.extend({ kind: z.literal('memory'), id: z.string() }),
  userModelVersion.extend({ kind: z.literal('userModel'), id: z.string() }),
]);

export const memoryPage = z.strictObject({
  items: z.array(memoryShape),
  total: z.number(),
  nextCursor: z.string().nullable().describe('Opaque cursor for the next page, null when this is the last one.'),
});

export const userModelEntry = z.strictObject({
  id: z.string(),
  persona: z.string(),
  dimension: z.string(),
  content: z.string(),
  confidence: z.number(),
  insertedAt: time,
  updatedAt: time,
});

/** A near-duplicate found for a text (docs/duplicates.md). */
export const similarMemory = z.strictObject({
  memory: memoryShape,
  cosine: z
    .number()
    .nullable()
    .describe("The current model's cosine of the two texts, or null when the text rule decided."),
});

/** Memories Tidy up found saying the same thing; `keep` is the default one to keep (most important, then newest). */
export const duplicateGroup = z.strictObject({
  keep: z.string(),
  memories: z.array(memoryShape).describe('`keep` first.'),
});

export const importFromItem = z.strictObject({
  content: z.string(),
  day,
  category: z.string().nullable(),
  importance: z
    .number()
    .optional()
    .describe('Where the source gives one; otherwise the memory gets the default (5).'),
  status: z
    .enum(['added', 'duplicate', 'near-duplicate'])
    .describe(
      'duplicate: the same text (normalised) is already a memory of this persona, or earlier in the same file; ' +
        'near-duplicate: a memory of this persona already says it in other words (docs/duplicates.md).',
    ),
  duplicateOf: z
    .string()
    .optional()
    .describe('The stored memory a duplicate or near-duplicate repeats, when it is one already stored.'),
});

export const importFromResult = z.strictObject({
  added: z.number(),
  skipped: z.number().describe('duplicates + nearDuplicates.'),
  duplicates: z.number().describe('Items whose exact text (normalised) is already stored or earlier in the input.'),
  nearDuplicates: z.number().describe('Items a stored memory already says in other words.'),
  items: z.array(importFromItem).describe('Every item read, in order (at most the first 1,000).'),
  dryRun: z.boolean(),
});
