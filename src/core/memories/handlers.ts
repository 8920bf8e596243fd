import { z } from 'zod';
import { handler } from '../handler';
import { requirePersona } from '../personas/store';
import { importance, isoDay, memoryOrigin, personaId, text } from '../schemas';
import { localDay } from '../time';
import { insertMemory, listMemories } from './store';

export const MAX_MEMORY_CHARS = 20_000;

const category = z.string().trim().max(64, 'a category is at most 64 characters').nullable().optional();

const filters = z
  .object({
    category: z.string().max(64).optional(),
    importanceMin: importance.optional(),
    importanceMax: importance.optional(),
    dayFrom: isoDay.optional(),
    dayTo: isoDay.optional(),
    origin: memoryOrigin.optional(),
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
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      const memory = await insertMemory(
        ctx.db,
        {
          persona: args.persona,
          content: args.content,
          category: args.category ? args.category : null,
          importance: args.importance,
          day: args.day ?? localDay(ctx.now()),
          origin: args.origin,
        },
        ctx.embeddingModel(),
      );
      ctx.events.emit('memories.changed', { persona: memory.persona, ids: [memory.id], reason: 'write' });
      return memory;
    },
  ),

  'memories.list': handler(
    z
      .object({
        persona: personaId,
        filters: filters.default({}),
        limit: z.number().int().min(1).max(500).default(100),
        cursor: z.string().max(500).nullable().optional(),
      })
      .strict(),
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return listMemories(ctx.db, args.persona, args.filters, args.limit, args.cursor ?? null, ctx.embeddingModel());
    },
  ),
};
