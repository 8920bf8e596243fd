import { describe, expect, it } from 'vitest';
import { TOOLS } from './definitions';
import { ingestArgs, memoryArgs, recallArgs, userModelArgs, userModelHistoryArgs } from './args';

// The tools' JSON schemas are generated from the zod schemas that check the calls; these are
// the facts a model relied on before they were (names, required lists, the descriptions it read).

type Prop = { type?: string; description?: string; minimum?: number; maximum?: number; enum?: string[] };
const params = (name: string) => {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.parameters as { type: string; properties: Record<string, Prop>; required?: string[] };
};

/** What each tool told the model before its parameters were generated. */
const BEFORE: Record<string, { required: string[]; described: Record<string, string> }> = {
  memory: {
    required: ['action'],
    described: {
      category: 'Short label, e.g. journal, project, health (write, supersede).',
      content: 'The memory, self-contained, with the date when it matters (write, supersede).',
      importance: '1–10, default 5 (write, supersede).',
      id: 'The memory id to delete or to supersede, as shown by recall.',
      reason: 'Why the old memory is no longer true (supersede only).',
    },
  },
  recall: {
    required: ['query'],
    described: {
      date: 'YYYY-MM-DD: only memories of that day.',
      category: 'Only memories of this category.',
      min_importance: 'Only memories at least this important.',
      from_day: 'YYYY-MM-DD: only memories of this day or later.',
      to_day: 'YYYY-MM-DD: only memories of this day or earlier.',
    },
  },
  user_model_write: { required: ['dimension', 'content'], described: { content: 'The whole new content of the dimension.' } },
  user_model_history: { required: ['dimension'], described: {} },
  knowledge_ingest: { required: [], described: {} },
};

describe('chat tools as the model sees them', () => {
  it('are the same five tools, each a flat object', () => {
    expect(TOOLS.map((t) => t.name)).toEqual(Object.keys(BEFORE));
    for (const t of TOOLS) {
      expect(params(t.name).type).toBe('object');
      expect(JSON.stringify(t.parameters)).not.toMatch(/"(anyOf|oneOf|allOf|\$ref)"/);
    }
  });

  it('describe every property, keeping the descriptions the model read before', () => {
    for (const [name, before] of Object.entries(BEFORE)) {
      const { properties } = params(name);
      for (const [key, prop] of Object.entries(properties)) expect(prop.description?.trim(), `${name}.${key}`).toBeTruthy();
      for (const [key, text] of Object.entries(before.described)) expect(properties[key]?.description, `${name}.${key}`).toBe(text);
    }
  });

  it('require exactly what they required before', () => {
    for (const [name, before] of Object.entries(BEFORE)) expect(params(name).required ?? [], name).toEqual(before.required);
  });

  it('list exactly the properties their zod schemas accept', () => {
    const keys = (...shapes: { shape: Record<string, unknown> }[]) => [...new Set(shapes.flatMap((s) => Object.keys(s.shape)))].sort();
    expect(Object.keys(params('memory').properties).sort()).toEqual(keys(...memoryArgs.options));
    expect(Object.keys(params('recall').properties).sort()).toEqual(keys(recallArgs));
    expect(Object.keys(params('user_model_write').properties).sort()).toEqual(keys(userModelArgs));
    expect(Object.keys(params('user_model_history').properties).sort()).toEqual(keys(userModelHistoryArgs));
    expect(Object.keys(params('knowledge_ingest').properties).sort()).toEqual(keys(...ingestArgs.options));
  });

  it('keep the bounds and choices the model was given, and no string patterns or lengths a local grammar builder chokes on', () => {
    expect(params('memory').properties.action!.enum).toEqual(['write', 'supersede', 'delete']);
    expect(params('memory').properties.importance).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    expect(params('recall').properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 20 });
    expect(params('recall').properties.min_importance).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    expect(params('user_model_write').properties.confidence).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    for (const t of TOOLS) expect(JSON.stringify(t.parameters), t.name).not.toMatch(/"(pattern|format|minLength|maxLength)"/);
  });
});
