import { z } from 'zod';
import type { Memory } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { recallArgs, recallToolFilters } from '../../chat/tools/args';
import { MAX_MEMORY_CHARS } from '../../memories/handlers';
import { importance, isoDay, text, uuid } from '../../schemas';
import { defineTool, type ToolScope } from './define';
import { hitLine, memoryData, memoryLine } from './format';

const category = z.string().trim().min(1).max(64, 'a category is at most 64 characters');

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

export const searchMemory = defineTool(
  {
    name: 'search_memory',
    title: 'Search memory',
    description:
      'Search the user’s long-term memory in Hearth (their memories and their knowledge-base documents) by meaning and keywords. ' +
      'Call it before answering anything that may depend on the user’s past, plans, preferences, people or projects, and before add_memory to avoid duplicates. ' +
      'Returns the best matches first, each tagged [memory <id> · <category> · imp=<1–10> · <day>] or [knowledge <source>#<chunk>]. ' +
      '`date` (YYYY-MM-DD) keeps only memories of that day; `category`, `min_importance`, `from_day` and `to_day` narrow which memories are searched.',
    writes: false,
    schema: recallArgs.strict(),
  },
  async (args, scope) => {
    const filters = recallToolFilters(args);
    const hits = await scope.call('recall', {
      persona: scope.persona,
      query: args.query,
      limit: args.limit ?? 5,
      ...(args.date ? { date: args.date } : {}),
      ...(filters ? { filters } : {}),
    });
    return {
      text: hits.length ? hits.map(hitLine).join('\n') : `No memories or knowledge match "${args.query}".`,
      data: { hits: hits.map((h) => ({ kind: h.kind, id: h.id, tag: h.tag, content: h.content, score: h.score.final })) },
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
      '`importance` 1–10 (default 5): 8–10 for what the user would be upset to have forgotten, 1–3 for passing detail. ' +
      '`day` is when it happened (YYYY-MM-DD, default today); `category` a short label such as work, health, family, project.',
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    schema: z
      .object({ content: text(MAX_MEMORY_CHARS), category: category.nullish(), importance: importance.nullish(), day: isoDay.nullish() })
      .strict(),
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

export const listMemories = defineTool(
  {
    name: 'list_memories',
    title: 'List recent memories',
    description:
      'List the user’s most recent memories (newest day first), optionally of one category. Use search_memory to find something specific; ' +
      'use this to browse what was saved lately.',
    writes: false,
    schema: z.object({ limit: z.number().int().min(1).max(100).nullish(), category: category.nullish() }).strict(),
  },
  async (args, scope) => {
    const page = await scope.call('memories.list', {
      persona: scope.persona,
      filters: args.category ? { category: args.category } : {},
      limit: args.limit ?? 20,
    });
    const head = `${page.items.length} of ${page.total} memories${args.category ? ` in category "${args.category}"` : ''}, newest first:`;
    return {
      text: page.items.length ? [head, ...page.items.map(memoryLine)].join('\n') : 'No memories yet.',
      data: { total: page.total, memories: page.items.map(memoryData) },
    };
  },
);

export const getMemory = defineTool(
  {
    name: 'get_memory',
    title: 'Get one memory',
    description: 'Read one memory in full by its id (as shown in search_memory or list_memories results).',
    writes: false,
    schema: z.object({ id: uuid }).strict(),
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
      'Correct one existing memory by id: give only the fields that change (content, category, importance 1–10, day YYYY-MM-DD). ' +
      'Use it when the user corrects something Hearth remembers, instead of adding a contradicting memory.',
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    schema: z
      .object({
        id: uuid,
        content: text(MAX_MEMORY_CHARS).optional(),
        category: category.nullish(),
        importance: importance.optional(),
        day: isoDay.optional(),
      })
      .strict()
      .refine((a) => a.content !== undefined || a.category !== undefined || a.importance !== undefined || a.day !== undefined, {
        message: 'give at least one of content, category, importance, day',
      }),
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
      'There is no way to delete several at once; never delete to tidy up or to replace a memory (use update_memory to correct it).',
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    schema: z.object({ id: uuid }).strict(),
  },
  async ({ id }, scope) => {
    await memoryOfPersona(scope, id);
    const r = await scope.call('memories.delete', { id });
    return { text: `Deleted memory ${id}: ${r.memory.content.slice(0, 200)}`, data: { deleted: id } };
  },
);
