import { z } from 'zod';
import type { LlmTool } from '../../providers/llm/types';
import { ingestArgs, memoryFields, recallArgs, userModelArgs, userModelHistoryArgs } from './args';

// Each tool's parameters are generated from the zod schemas that check its calls (args.ts),
// so what the model is told and what is accepted cannot drift apart. The JSON stays plain:
// flat objects rather than oneOf, and no string patterns, formats or lengths, because several
// local servers' grammar builders handle only plain properties (and turn a length of
// thousands into a grammar of thousands of rules). The zod schemas remain the real check.

/** The schema under `.optional()` / `.nullish()`: the property itself, with the outermost description. */
function bare(schema: z.ZodType): z.ZodType {
  let s = schema;
  let description = schema.description;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
    s = s.unwrap() as z.ZodType;
    description ??= s.description;
  }
  return description ? s.describe(description) : s;
}

const PLAIN_DROPS = ['pattern', 'format', 'minLength', 'maxLength'] as const;

/** A flat JSON Schema object of these properties, of which `required` must be given. */
export function toolParameters(fields: Record<string, z.ZodType>, required: readonly string[]): Record<string, unknown> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(fields)) shape[key] = required.includes(key) ? bare(schema) : bare(schema).optional();
  const json = z.toJSONSchema(z.object(shape), {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      for (const k of PLAIN_DROPS) delete (jsonSchema as Record<string, unknown>)[k];
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

const [ingestPath, ingestText] = ingestArgs.options;

export const TOOLS: LlmTool[] = [
  {
    name: 'memory',
    description:
      'Save an event memory (action "write": a timestamped occurrence, milestone or conversation worth recalling); replace a memory that is no longer true with the new fact (action "supersede": id of the old memory plus the new content; the old one is kept as history); or delete one memory by id (action "delete", only when the user asks). A fact already saved, even in other words, is not saved again: the answer names that memory, to supersede if it changed.',
    parameters: toolParameters(memoryFields, ['action']),
  },
  {
    name: 'recall',
    description: 'Search this persona’s memories and knowledge base. Returns tagged hits, best first.',
    parameters: toolParameters(recallArgs.shape, ['query']),
  },
  {
    name: 'user_model_write',
    description:
      'Replace one dimension of the user model (stable facts about the user: baseline, preferences, working_patterns, feedback, goals, or another short name).',
    parameters: toolParameters(userModelArgs.shape, ['dimension', 'content']),
  },
  {
    name: 'user_model_history',
    description: 'Earlier values of one user-model dimension, oldest first, with when each was true and who changed it.',
    parameters: toolParameters(userModelHistoryArgs.shape, ['dimension']),
  },
  {
    name: 'knowledge_ingest',
    description:
      'Add a document to the knowledge base: either {path} of a file inside the persona’s workspace folder, or {text, source} for raw text under a source name.',
    parameters: toolParameters(
      {
        path: ingestPath.shape.path.describe('A file inside the persona’s workspace folder (instead of text and source).'),
        text: ingestText.shape.text.describe('The document’s raw text (with source, instead of path).'),
        source: ingestText.shape.source.describe('The name the text is kept and recalled under (with text).'),
      },
      [],
    ),
  },
];

/** The tools that only read: all an incognito chat offers (docs/privacy.md). */
export const READING_TOOLS: ReadonlySet<string> = new Set(['recall', 'user_model_history']);

/** The tools offered in a conversation: an incognito one gets only those that read. */
export function toolsFor(incognito: boolean): LlmTool[] {
  return incognito ? TOOLS.filter((t) => READING_TOOLS.has(t.name)) : TOOLS;
}
