import { z } from 'zod';
import type { MemoryFilters } from '../../../shared/api';
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
  // The memory browser's filters, narrowing which memories are searched (none by default).
  category: category.nullish(),
  min_importance: importance.nullish(),
  from_day: isoDay.nullish(),
  to_day: isoDay.nullish(),
});

/** A recall tool call's filters in the contract's shape; undefined when it set none, so the call is unchanged. */
export function recallToolFilters(a: z.infer<typeof recallArgs>): MemoryFilters | undefined {
  const f: MemoryFilters = {
    ...(a.category ? { category: a.category } : {}),
    ...(a.min_importance ? { importanceMin: a.min_importance } : {}),
    ...(a.from_day ? { dayFrom: a.from_day } : {}),
    ...(a.to_day ? { dayTo: a.to_day } : {}),
  };
  return Object.keys(f).length ? f : undefined;
}

export const userModelArgs = z.object({
  dimension,
  content: text(MAX_USER_MODEL_CHARS),
  confidence: confidence.nullish(),
});

// The knowledge store validates these again (knowledgeIngestToolArgs); this is the model-facing message.
export { knowledgeIngestToolArgs as ingestArgs } from '../../knowledge/tool';

export type MemoryArgs = z.infer<typeof memoryArgs>;
