import { z } from 'zod';
import type { MemoryFilters } from '../../../shared/api';
import { category, confidence, dimension, importance, isoDay, text, uuid } from '../../../shared/contract/fields';
import { MEMORY_CONTENT_MAX, REASON_MAX, TOOL_QUERY_MAX, TOOL_RECALL_LIMIT_MAX, USER_MODEL_CONTENT_MAX } from '../../../shared/contract/limits';

// What a tool call's arguments must be, and what the model is told about each
// one: the tools' JSON schemas are generated from these (definitions.ts).
// Anything else is answered to the model as an error it can correct; nothing is written.

/** Above this the raw JSON is refused before parsing (the knowledge tool takes up to 2 MB of text). */
export const MAX_TOOL_ARGS_CHARS = 2_100_000;

/** The memory tool's arguments, each described once for the model. */
export const memoryFields = {
  action: z.enum(['write', 'supersede', 'delete']).describe('write: save a new memory; supersede: replace one that is no longer true; delete: remove one.'),
  category: category.describe('Short label, e.g. journal, project, health (write, supersede).'),
  content: text(MEMORY_CONTENT_MAX).describe('The memory, self-contained, with the date when it matters (write, supersede).'),
  importance: importance.describe('1–10, default 5 (write, supersede).'),
  id: uuid.describe('The memory id to delete or to supersede, as shown by recall.'),
  reason: z.string().max(REASON_MAX).describe('Why the old memory is no longer true (supersede only).'),
};
const m = memoryFields;

export const memoryArgs = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('write'),
    content: m.content,
    category: m.category.nullish(),
    importance: m.importance.nullish(),
  }),
  z.object({ action: z.literal('delete'), id: m.id }),
  // The new fact and the id of the one it replaces, in one call (docs/history.md).
  z.object({
    action: z.literal('supersede'),
    id: m.id,
    content: m.content,
    category: m.category.nullish(),
    importance: m.importance.nullish(),
    reason: m.reason.nullish(),
  }),
]);

export const userModelHistoryArgs = z.object({
  dimension: dimension.describe('The dimension’s name, e.g. baseline, preferences, working_patterns, feedback, goals.'),
});

export const recallArgs = z.object({
  query: text(TOOL_QUERY_MAX).describe('What to look for, in words (a question or keywords).'),
  limit: z.number().int().min(1).max(TOOL_RECALL_LIMIT_MAX).nullish().describe(`How many results at most (1–${TOOL_RECALL_LIMIT_MAX}, default 5).`),
  date: isoDay.nullish().describe('YYYY-MM-DD: only memories of that day.'),
  // The memory browser's filters, narrowing which memories are searched (none by default).
  category: category.nullish().describe('Only memories of this category.'),
  min_importance: importance.nullish().describe('Only memories at least this important.'),
  from_day: isoDay.nullish().describe('YYYY-MM-DD: only memories of this day or later.'),
  to_day: isoDay.nullish().describe('YYYY-MM-DD: only memories of this day or earlier.'),
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
  dimension: userModelHistoryArgs.shape.dimension,
  content: text(USER_MODEL_CONTENT_MAX).describe('The whole new content of the dimension.'),
  confidence: confidence.nullish().describe('1–10, default 5: how sure the fact is.'),
});

// The knowledge store validates these again (knowledgeIngestToolArgs); this is the model-facing message.
export { knowledgeIngestToolArgs as ingestArgs } from '../../knowledge/tool';

export type MemoryArgs = z.infer<typeof memoryArgs>;
