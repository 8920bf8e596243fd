import { z } from 'zod';
import { count, time } from './common';

export const persona = z.strictObject({
  id: z.string(),
  name: z.string(),
  avatar: z
    .string()
    .nullable()
    .describe("One emoji or one or two letters; null shows the name's first character (src/shared/avatar.ts)."),
  createdAt: time,
  counts: z.strictObject({
    memories: count,
    userModel: count,
    knowledgeSources: count,
    knowledgeChunks: count,
    messages: count,
  }),
  localOnly: z
    .boolean()
    .describe("Every model call carrying this persona's content goes only to this computer (docs/privacy.md)."),
  mcp: z.boolean().describe('Other AI tools may use this persona over MCP.'),
});

/** personas.update's answer: the persona, and what its privacy settings stop with the current providers. */
export const personaUpdate = z.strictObject({
  persona,
  warnings: z
    .array(z.string())
    .describe('One sentence per model call that will be refused, e.g. "Chat uses api.openai.com: …". Empty when nothing stops.'),
});

/** What personas.import made: the new persona and how many records of each type it read. */
export const personaImport = z.strictObject({
  persona,
  counts: z.record(z.string(), z.number()),
  toEmbed: z.number().describe('Rows queued for embedding (their vectors came from another model, or had none).'),
  toIndex: z
    .number()
    .describe(
      'Rows whose vectors came with the file: they join the vector index in the background (found by text meanwhile).',
    ),
});
