import type { LlmTool } from '../../providers/llm/types';

// Flat objects rather than oneOf: several local servers' grammar builders
// handle only plain properties. The zod schemas in args.ts are the real check.
export const TOOLS: LlmTool[] = [
  {
    name: 'memory',
    description:
      'Save an event memory (action "write": a timestamped occurrence, milestone or conversation worth recalling); replace a memory that is no longer true with the new fact (action "supersede": id of the old memory plus the new content; the old one is kept as history); or delete one memory by id (action "delete", only when the user asks). A fact already saved, even in other words, is not saved again: the answer names that memory, to supersede if it changed.',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['write', 'supersede', 'delete'] },
        category: { type: 'string', description: 'Short label, e.g. journal, project, health (write, supersede).' },
        content: { type: 'string', description: 'The memory, self-contained, with the date when it matters (write, supersede).' },
        importance: { type: 'integer', minimum: 1, maximum: 10, description: '1–10, default 5 (write, supersede).' },
        id: { type: 'string', description: 'The memory id to delete or to supersede, as shown by recall.' },
        reason: { type: 'string', description: 'Why the old memory is no longer true (supersede only).' },
      },
      required: ['action'],
    },
  },
  {
    name: 'recall',
    description: 'Search this persona’s memories and knowledge base. Returns tagged hits, best first.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: 20 },
        date: { type: 'string', description: 'YYYY-MM-DD: only memories of that day.' },
        category: { type: 'string', description: 'Only memories of this category.' },
        min_importance: { type: 'integer', minimum: 1, maximum: 10, description: 'Only memories at least this important.' },
        from_day: { type: 'string', description: 'YYYY-MM-DD: only memories of this day or later.' },
        to_day: { type: 'string', description: 'YYYY-MM-DD: only memories of this day or earlier.' },
      },
      required: ['query'],
    },
  },
  {
    name: 'user_model_write',
    description:
      'Replace one dimension of the user model (stable facts about the user: baseline, preferences, working_patterns, feedback, goals, or another short name).',
    parameters: {
      type: 'object',
      properties: {
        dimension: { type: 'string' },
        content: { type: 'string', description: 'The whole new content of the dimension.' },
        confidence: { type: 'integer', minimum: 1, maximum: 10 },
      },
      required: ['dimension', 'content'],
    },
  },
  {
    name: 'user_model_history',
    description: 'Earlier values of one user-model dimension, oldest first, with when each was true and who changed it.',
    parameters: {
      type: 'object',
      properties: { dimension: { type: 'string' } },
      required: ['dimension'],
    },
  },
  {
    name: 'knowledge_ingest',
    description:
      'Add a document to the knowledge base: either {path} of a file inside the persona’s workspace folder, or {text, source} for raw text under a source name.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        text: { type: 'string' },
        source: { type: 'string' },
      },
    },
  },
];

/** The tools that only read: all an incognito chat offers (docs/privacy.md). */
export const READING_TOOLS: ReadonlySet<string> = new Set(['recall', 'user_model_history']);

/** The tools offered in a conversation: an incognito one gets only those that read. */
export function toolsFor(incognito: boolean): LlmTool[] {
  return incognito ? TOOLS.filter((t) => READING_TOOLS.has(t.name)) : TOOLS;
}
