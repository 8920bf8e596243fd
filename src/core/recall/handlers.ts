import { z } from 'zod';
import { RECALL_KINDS } from '../../shared/enums';
import { handler } from '../method';
import { isoDay, memoryFilters, personaId } from '../schemas';
import { recall, searchMemories } from './recall';

// Any text is a valid query; the length cap only guards the door.
const query = z.string().max(100_000, 'a query is at most 100,000 characters');

export const recallHandlers = {
  recall: handler(
    z
      .object({
        persona: personaId,
        query,
        limit: z.number().int().min(1).max(100).default(5),
        date: isoDay.optional(),
        kinds: z.array(z.enum(RECALL_KINDS)).max(2).optional(),
        includeSuperseded: z.boolean().optional(),
        filters: memoryFilters.optional(),
      })
      .strict(),
    // recall embeds the query itself (text-only when the embedder cannot answer in time).
    (args, ctx) => recall(ctx, { ...args, rewrite: true }),
    { readsTextOnly: true },
  ),
  'memories.search': handler(
    z
      .object({
        persona: personaId,
        query,
        limit: z.number().int().min(1).max(100).default(10),
        filters: memoryFilters.optional(),
        includeSuperseded: z.boolean().optional(),
      })
      .strict(),
    (args, ctx) => searchMemories(ctx, args),
    { readsTextOnly: true },
  ),
};
