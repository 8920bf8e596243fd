import { z } from 'zod';
import { RECALL_KINDS } from '../enums';
import { isoDay, memoryFilters, personaId } from './fields';
import { QUERY_MAX } from './limits';

// Any text is a valid query; the length cap only guards the door.
const query = z.string().max(QUERY_MAX, 'a query is at most 100,000 characters');

export const recallArgs = {
  recall: z
    .object({
      persona: personaId,
      query,
      limit: z.number().int().min(1).max(100).default(5),
      date: isoDay.optional(),
      kinds: z.array(z.enum(RECALL_KINDS)).max(2).optional(),
      /** Also return superseded memories, each ranked below what replaced it. */
      includeSuperseded: z.boolean().optional(),
      /** Narrows which memories recall considers (knowledge is unaffected); none by default. */
      filters: memoryFilters.optional(),
    })
    .strict(),
  /** The memory browser's search: recall over memories only, with how many memories match at all. */
  'memories.search': z
    .object({
      persona: personaId,
      query,
      limit: z.number().int().min(1).max(100).default(10),
      filters: memoryFilters.optional(),
      includeSuperseded: z.boolean().optional(),
    })
    .strict(),
};
