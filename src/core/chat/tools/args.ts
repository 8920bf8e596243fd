import { z } from 'zod';
import { importance, isoDay, text, uuid } from '../../schemas';
import { confidence, dimension, MAX_USER_MODEL_CHARS } from '../../user-model/write';

// What a tool call's arguments must be. Anything else is answered to the
// model as an error it can correct; nothing is written.

/** Above this the raw JSON is refused before parsing (the knowledge tool takes up to 2 MB of text). */
export const MAX_TOOL_ARGS_CHARS = 2_100_000;

const category = z.string().trim().min(1).max(64, 'a category is at most 64 characters');

export const memoryArgs = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('write'),
    content: text(20_000),
    category: category.nullish(),
    importance: importance.nullish(),
  }),
  z.object({ action: z.literal('delete'), id: uuid }),
  // The new fact and the id of the one it replaces, in one call (docs/history.md).
  z.object({
    action: z.literal('supersede'),
    id: uuid,
    content: text(20_000),
    category: category.nullish(),
    importance: importance.nullish(),
    reason: z.string().max(500).nullish(),
  }),
]);

export const userModelHistoryArgs = z.object({ dimension });

export const recallArgs = z.object({
  query: text(2_000),
  limit: z.number().int().min(1).max(20).nullish(),
  date: isoDay.nullish(),
});

export const userModelArgs = z.object({
  dimension,
  content: text(MAX_USER_MODEL_CHARS),
  confidence: confidence.nullish(),
});

// The knowledge store validates these again (knowledgeIngestToolArgs); this is the model-facing message.
export { knowledgeIngestToolArgs as ingestArgs } from '../../knowledge/tool';

export type MemoryArgs = z.infer<typeof memoryArgs>;
