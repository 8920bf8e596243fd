import { z } from 'zod';
import type { Memory, RecallHit } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { recallArgs, recallToolFilters } from '../../chat/tools/args';
import { category, importance, isoDay, memoryOrigin, text, uuid } from '../../../shared/contract/fields';
import { MEMORY_CONTENT_MAX as MAX_MEMORY_CHARS } from '../../../shared/contract/limits';
import { defineTool, described, type ToolScope } from './define';
import { hitLine, hitStrength, memoryData, memoryLine } from './format';

const memoryId = 'The memory’s id (a UUID), as shown in the [memory <id> …] tags of search_memory and list_memories.';

/** One memory as structuredContent carries it. */
const memoryOut = z.object({
  id: z.string().describe('The memory’s id.'),
  category: z.string().nullable().describe('Its short label, or null (general).'),
  content: z.string().describe('The memory’s text.'),
  importance: z.number().int().describe('1–10.'),
  day: z.string().describe('When it happened (YYYY-MM-DD).'),
  origin: z.string().describe('Who wrote it: explicit, review, flush, manual, import, or mcp:<client>.'),
  updatedAt: z.string().describe('When it was last changed (ISO time).'),
});
const oneMemory = z.object({ memory: memoryOut.describe('The memory.') });

/** A memory of the bound persona, or not_found — the same answer whether the id is unknown or another persona's. */
async function memoryOfPersona(scope: ToolScope, id: string): Promise<Memory> {
  const missing = () => new AppError('not_found', `This persona has no memory ${id}.`);
  let m: Memory;
  try {
    m = await scope.call('memories.get', { id });
  } catch (e) {
    throw e instanceof AppError && e.code === 'not_found' ? missing() : e;
  }
  if (m.persona !== scope.persona) throw missing();
  return m;
}

const r = recallArgs.shape;
export const searchMemory = defineTool(
  {
    name: 'search_memory',
    title: 'Search memory',
    description:
      'Search the user’s long-term memory in Hearth (their memories and their knowledge-base documents) by meaning and keywords. ' +
      'Call it before answering anything that may depend on the user’s past, plans, preferences, people or projects, and before add_memory to avoid duplicates. ' +
      'Returns the best matches first, each tagged [memory <id> · <category> · imp=<1–10> · <day>] or [knowledge <source>#<chunk>], ' +
      'with its match strength (strong, fair, weak) and score: treat a weak match as "probably not remembered".',
    writes: false,
    schema: described(
      { query: r.query, limit: r.limit, date: r.date, category: r.category, min_importance: r.min_importance, from_day: r.from_day, to_day: r.to_day },
      {
        query: 'What to look for, in words (a question or keywords).',
        limit: 'How many results at most (1–20, default 5).',
        date: 'Keep only memories of exactly this day (YYYY-MM-DD). For a range use from_day/to_day.',
        category: 'Search only memories of this category (e.g. work, health).',
        min_importance: 'Search only memories at least this important (1–10).',
        from_day: 'Search only memories on or after this day (YYYY-MM-DD).',
        to_day: 'Search only memories on or before this day (YYYY-MM-DD).',
      },
    ),
    output: z.object({
      hits: z
        .array(
          z.object({
            kind: z.string().describe('memory or knowledge.'),
            id: z.string().describe('The memory id, or the knowledge chunk id.'),
            tag: z.string().describe('The tag shown in the text answer.'),
            content: z.string().describe('The matching text.'),
            score: z.number().describe('The ranking score (higher is better; only comparable within one search).'),
            strength: z.enum(['strong', 'fair', 'weak']).describe('How well it matches the query, from its text and meaning similarity.'),
          }),
        )
        .describe('Best match first.'),
    }),
  },
  async (args, scope) => {
    const filters = recallToolFilters(args);
    const hits: RecallHit[] = await scope.call('recall', {
      persona: scope.persona,
      query: args.query,
      limit: args.limit ?? 5,
      ...(args.date ? { date: args.date } : {}),
      ...(filters ? { filters } : {}),
    });
    return {
      text: hits.length ? hits.map(hitLine).join('\n') : `No memories or knowledge match "${args.query}".`,
      data: { hits: hits.map((h) => ({ kind: h.kind, id: h.id, tag: h.tag, content: h.content, score: h.score.final, strength: hitStrength(h) })) },
    };
  },
);

export const addMemory = defineTool(
  {
    name: 'add_memory',
    title: 'Add a memory',
    description:
      'Save one durable memory about the user: an event, decision, milestone or fact worth recalling weeks later, written self-contained ' +
      '(who, what, when) so it makes sense without this conversation. Search first and do not save what is already there or what is trivial. ' +
      'To replace a fact that is no longer true, use supersede_memory instead.',
    writes: true,
    schema: described(
      { content: text(MAX_MEMORY_CHARS), category: category.nullish(), importance: importance.nullish(), day: isoDay.nullish() },
      {
        content: 'The memory, self-contained (who, what, when).',
        category: 'A short label such as work, health, family, project (default: none).',
        importance: '1–10 (default 5): 8–10 for what the user would be upset to have forgotten, 1–3 for passing detail.',
        day: 'When it happened (YYYY-MM-DD, default today).',
      },
    ),
    output: z.object({
      memory: memoryOut.optional().describe('The memory saved.'),
      duplicateOf: z.string().optional().describe('Set instead when the same fact was already saved: that memory’s id (nothing was written).'),
    }),
  },
  async (args, scope) => {
    // A fact the persona already holds in other words is not written again (docs/duplicates.md).
    const similar = await scope.call('memories.similar', { persona: scope.persona, content: args.content });
    if (similar) {
      const d = similar.memory;
      return {
        text: `Nothing saved: already saved as [memory ${d.id}] "${d.content}" [${d.category ?? 'general'}, imp=${d.importance}, ${d.day}].`,
        data: { memory: memoryData(d), duplicateOf: d.id },
      };
    }
    const m = await scope.call('memories.write', {
      persona: scope.persona,
      content: args.content,
      category: args.category ?? null,
      importance: args.importance ?? 5,
      ...(args.day ? { day: args.day } : {}),
    });
    return { text: `Saved memory ${m.id} [${m.category ?? 'general'}, imp=${m.importance}, ${m.day}].`, data: { memory: memoryData(m) } };
  },
);

export const supersedeMemory = defineTool(
  {
    name: 'supersede_memory',
    title: 'Replace a memory that is no longer true',
    description:
      'When a remembered fact has changed (a new address, a cancelled plan), save the new fact and mark the old memory as superseded by it. ' +
      'The old memory is kept as history, not deleted; searches then prefer the new one. Use update_memory instead to fix a mistake in a memory.',
    writes: true,
    schema: described(
      { id: uuid, content: text(MAX_MEMORY_CHARS), category: category.nullish(), importance: importance.nullish(), day: isoDay.nullish() },
      {
        id: `The memory that is no longer true. ${memoryId}`,
        content: 'The new fact, self-contained (who, what, when).',
        category: 'A short label for the new memory (default: the old memory’s category).',
        importance: '1–10 for the new memory (default: the old memory’s importance).',
        day: 'When the change happened (YYYY-MM-DD, default today).',
      },
    ),
    output: z.object({ memory: memoryOut.describe('The new memory.'), supersedes: z.string().describe('The id of the memory it replaces (kept as history).') }),
  },
  async (args, scope) => {
    const old = await memoryOfPersona(scope, args.id);
    const m = await scope.call('memories.write', {
      persona: scope.persona,
      content: args.content,
      category: args.category === undefined ? old.category : args.category,
      importance: args.importance ?? old.importance,
      ...(args.day ? { day: args.day } : {}),
    });
    await scope.call('memories.supersede', { id: old.id, by: m.id });
    return {
      text: `Saved memory ${m.id} [${m.category ?? 'general'}, imp=${m.importance}, ${m.day}]; it supersedes memory ${old.id}, which is kept as history.`,
      data: { memory: memoryData(m), supersedes: old.id },
    };
  },
);

export const listMemories = defineTool(
  {
    name: 'list_memories',
    title: 'List recent memories',
    description:
      'List the user’s memories, newest day first, a page at a time, optionally narrowed by category, origin or days. ' +
      'Use search_memory to find something specific; use this to browse. Pass the answer’s nextCursor back as cursor for the next page.',
    writes: false,
    schema: described(
      {
        limit: z.number().int().min(1).max(100).nullish(),
        cursor: z.string().min(1).max(500).nullish(),
        category: category.nullish(),
        origin: memoryOrigin.nullish(),
        from_day: isoDay.nullish(),
        to_day: isoDay.nullish(),
      },
      {
        limit: 'How many memories per page (1–100, default 20).',
        cursor: 'The nextCursor of the previous page, to continue; leave out for the first page.',
        category: 'Only memories of this category.',
        origin: 'Only memories written by this: explicit, review, flush, manual, import, or mcp:<client name>.',
        from_day: 'Only memories on or after this day (YYYY-MM-DD).',
        to_day: 'Only memories on or before this day (YYYY-MM-DD).',
      },
    ),
    output: z.object({
      total: z.number().int().describe('How many memories match, over all pages.'),
      memories: z.array(memoryOut).describe('This page, newest day first.'),
      nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
    }),
  },
  async (args, scope) => {
    const filters = {
      ...(args.category ? { category: args.category } : {}),
      ...(args.origin ? { origin: args.origin } : {}),
      ...(args.from_day ? { dayFrom: args.from_day } : {}),
      ...(args.to_day ? { dayTo: args.to_day } : {}),
    };
    const page = await scope.call('memories.list', { persona: scope.persona, filters, limit: args.limit ?? 20, cursor: args.cursor ?? null });
    const narrowed = Object.keys(filters).length ? ' matching' : '';
    const head = `${page.items.length} of ${page.total}${narrowed} memories, newest first${page.nextCursor ? ` (more: cursor "${page.nextCursor}")` : ''}:`;
    return {
      text: page.items.length ? [head, ...page.items.map(memoryLine)].join('\n') : args.cursor ? 'No more memories.' : 'No memories match.',
      data: { total: page.total, memories: page.items.map(memoryData), nextCursor: page.nextCursor },
    };
  },
);

export const getMemory = defineTool(
  {
    name: 'get_memory',
    title: 'Get one memory',
    description: 'Read one memory in full by its id (as shown in search_memory or list_memories results).',
    writes: false,
    schema: described({ id: uuid }, { id: memoryId }),
    output: oneMemory,
  },
  async ({ id }, scope) => {
    const m = await memoryOfPersona(scope, id);
    return { text: memoryLine(m), data: { memory: memoryData(m) } };
  },
);

export const updateMemory = defineTool(
  {
    name: 'update_memory',
    title: 'Correct a memory',
    description:
      'Correct one existing memory by id: give only the fields that change. ' +
      'Use it when the user corrects something Hearth remembers wrongly; when a fact has changed since, use supersede_memory.',
    writes: true,
    idempotent: true,
    schema: described(
      {
        id: uuid,
        content: text(MAX_MEMORY_CHARS).optional(),
        category: category.nullish(),
        importance: importance.optional(),
        day: isoDay.optional(),
      },
      {
        id: memoryId,
        content: 'The corrected text (replaces the old one).',
        category: 'The new category; null for none.',
        importance: 'The new importance, 1–10.',
        day: 'The corrected day it happened (YYYY-MM-DD).',
      },
    ).refine((a) => a.content !== undefined || a.category !== undefined || a.importance !== undefined || a.day !== undefined, {
      message: 'give at least one of content, category, importance, day',
    }),
    output: oneMemory,
  },
  async ({ id, ...patch }, scope) => {
    await memoryOfPersona(scope, id);
    const m = await scope.call('memories.update', { id, ...patch });
    return { text: `Updated ${memoryLine(m)}`, data: { memory: memoryData(m) } };
  },
);

export const deleteMemory = defineTool(
  {
    name: 'delete_memory',
    title: 'Delete one memory',
    description:
      'Delete exactly one memory by id, only when the user explicitly asks to forget that specific thing. ' +
      'There is no way to delete several at once; never delete to tidy up or to replace a memory (use update_memory or supersede_memory).',
    writes: true,
    destructive: true,
    idempotent: true,
    schema: described({ id: uuid }, { id: memoryId }),
    output: z.object({ deleted: z.string().describe('The id of the memory deleted.') }),
  },
  async ({ id }, scope) => {
    await memoryOfPersona(scope, id);
    const res = await scope.call('memories.delete', { id });
    return { text: `Deleted memory ${id}: ${res.memory.content.slice(0, 200)}`, data: { deleted: id } };
  },
);
