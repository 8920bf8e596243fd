import { MEMORY_CONTENT_MAX } from '../../shared/contract/limits';
import { memoryArgs } from '../../shared/contract/memories';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { deleteMemory, restoreMemory, updateMemory, writeMemory } from './mutate';
import { getMemory, listMemories } from './store';
import { findNearDuplicate, textVector } from './duplicates';
import { duplicateGroups, markNotDuplicates, mergeMemories } from './tidy';
import { memoryCategories, topMemoriesBlock } from './top';

export const MAX_MEMORY_CHARS = MEMORY_CONTENT_MAX;

export const memoryHandlers = {
  'memories.write': handler(
    memoryArgs['memories.write'],
    // Another AI tool's writes are marked as its own, whatever origin it sends.
    (args, ctx, call) =>
      writeMemory(ctx, { ...args, actor: call.actor, origin: call.actor.startsWith('mcp:') ? (call.actor as `mcp:${string}`) : args.origin }),
  ),

  'memories.list': handler(
    memoryArgs['memories.list'],
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return listMemories(ctx.db, args.persona, args.filters, args.limit, args.cursor ?? null, ctx.embedder.model());
    },
  ),

  'memories.update': handler(
    memoryArgs['memories.update'],
    ({ id, ...patch }, ctx, call) => updateMemory(ctx, id, patch, { actor: call.actor }),
  ),

  'memories.delete': handler(memoryArgs['memories.delete'], async ({ id }, ctx, call) => ({
    id,
    deleted: true as const,
    memory: await deleteMemory(ctx, id, { actor: call.actor }),
  })),

  'memories.restore': handler(memoryArgs['memories.restore'], ({ memory }, ctx, call) =>
    restoreMemory(ctx, memory.id, { actor: call.actor }),
  ),

  'memories.get': handler(memoryArgs['memories.get'], ({ id }, ctx) => getMemory(ctx.db, id, ctx.embedder.model())),

  'memories.categories': handler(memoryArgs['memories.categories'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return memoryCategories(ctx.db, persona);
  }),

  'memories.similar': handler(
    memoryArgs['memories.similar'],
    async ({ persona, content, exclude }, ctx) => {
      await requirePersona(ctx.db, persona);
      return findNearDuplicate(ctx, persona, content, { exclude: exclude ?? [], vector: await textVector(ctx, persona, content, true) });
    },
  ),

  'memories.duplicates': handler(memoryArgs['memories.duplicates'], ({ persona }, ctx) => duplicateGroups(ctx, persona)),

  'memories.merge': handler(
    memoryArgs['memories.merge'],
    ({ keep, others }, ctx, call) => mergeMemories(ctx, keep, others, { actor: call.actor }),
  ),

  'memories.notDuplicates': handler(memoryArgs['memories.notDuplicates'], ({ ids }, ctx) => markNotDuplicates(ctx, ids)),

  'memories.topBlock': handler(memoryArgs['memories.topBlock'], async ({ persona, withIds }, ctx) => {
    await requirePersona(ctx.db, persona);
    return topMemoriesBlock(ctx.db, persona, 20, withIds ?? false);
  }),
};
