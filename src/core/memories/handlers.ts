import { z } from 'zod';
import { EMBEDDING_STATUSES } from '../../shared/enums';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { importance, isoDay, memoryFilters, memoryOrigin, personaId, text, uuid } from '../schemas';
import { deleteMemory, restoreMemory, updateMemory, writeMemory } from './mutate';
import { getMemory, listMemories } from './store';
import { findNearDuplicate, textVector } from './duplicates';
import { duplicateGroups, markNotDuplicates, mergeMemories } from './tidy';
import { memoryCategories, topMemoriesBlock } from './top';

export const MAX_MEMORY_CHARS = 20_000;

const category = z.string().trim().max(64, 'a category is at most 64 characters').nullable().optional();


const memoryShape = z
  .object({
    id: uuid,
    persona: personaId,
    category: z.string().max(64).nullable(),
    content: text(MAX_MEMORY_CHARS),
    importance,
    day: isoDay,
    origin: memoryOrigin,
    embeddingStatus: z.enum(EMBEDDING_STATUSES),
    embeddingModel: z.string().nullable(),
    embeddingError: z.string().nullable(),
    conversationId: uuid.nullable(),
    insertedAt: z.iso.datetime({ offset: true }),
    updatedAt: z.iso.datetime({ offset: true }),
    // Shown by the browser; undoing a deletion re-links what the memory had replaced (docs/history.md).
    supersededBy: uuid.nullable().optional(),
    supersededAt: z.iso.datetime({ offset: true }).nullable().optional(),
    supersedes: z.array(uuid).max(10_000).optional(),
  })
  .strict();

export const memoryHandlers = {
  'memories.write': handler(
    z
      .object({
        persona: personaId,
        content: text(MAX_MEMORY_CHARS),
        category,
        importance: importance.default(5),
        day: isoDay.optional(),
        origin: memoryOrigin.default('manual'),
      })
      .strict(),
    // Another AI tool's writes are marked as its own, whatever origin it sends.
    (args, ctx, call) =>
      writeMemory(ctx, { ...args, actor: call.actor, origin: call.actor.startsWith('mcp:') ? (call.actor as `mcp:${string}`) : args.origin }),
  ),

  'memories.list': handler(
    z
      .object({
        persona: personaId,
        filters: memoryFilters.default({}),
        limit: z.number().int().min(1).max(500).default(100),
        cursor: z.string().max(500).nullable().optional(),
      })
      .strict(),
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return listMemories(ctx.db, args.persona, args.filters, args.limit, args.cursor ?? null, ctx.embedder.model());
    },
  ),

  'memories.update': handler(
    z
      .object({ id: uuid, content: text(MAX_MEMORY_CHARS).optional(), category, importance: importance.optional(), day: isoDay.optional() })
      .strict(),
    ({ id, ...patch }, ctx, call) => updateMemory(ctx, id, patch, { actor: call.actor }),
  ),

  'memories.delete': handler(z.object({ id: uuid }).strict(), async ({ id }, ctx, call) => ({
    id,
    deleted: true as const,
    memory: await deleteMemory(ctx, id, { actor: call.actor }),
  })),

  'memories.restore': handler(z.object({ memory: memoryShape }).strict(), ({ memory }, ctx, call) =>
    restoreMemory(ctx, memory.id, { actor: call.actor }),
  ),

  'memories.get': handler(z.object({ id: uuid }).strict(), ({ id }, ctx) => getMemory(ctx.db, id, ctx.embedder.model())),

  'memories.categories': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return memoryCategories(ctx.db, persona);
  }),

  'memories.similar': handler(
    z.object({ persona: personaId, content: text(MAX_MEMORY_CHARS), exclude: z.array(uuid).max(100).optional() }).strict(),
    async ({ persona, content, exclude }, ctx) => {
      await requirePersona(ctx.db, persona);
      return findNearDuplicate(ctx, persona, content, { exclude: exclude ?? [], vector: await textVector(ctx, persona, content, true) });
    },
  ),

  'memories.duplicates': handler(z.object({ persona: personaId }).strict(), ({ persona }, ctx) => duplicateGroups(ctx, persona)),

  'memories.merge': handler(
    z.object({ keep: uuid, others: z.array(uuid).min(1).max(1000) }).strict(),
    ({ keep, others }, ctx, call) => mergeMemories(ctx, keep, others, { actor: call.actor }),
  ),

  'memories.notDuplicates': handler(z.object({ ids: z.array(uuid).min(2).max(100) }).strict(), ({ ids }, ctx) => markNotDuplicates(ctx, ids)),

  'memories.topBlock': handler(z.object({ persona: personaId, withIds: z.boolean().optional() }).strict(), async ({ persona, withIds }, ctx) => {
    await requirePersona(ctx.db, persona);
    return topMemoriesBlock(ctx.db, persona, 20, withIds ?? false);
  }),
};
