import { z } from 'zod';
import type { ArgsOf, Method, ResultOf } from '../../../shared/api';
import { AppError } from '../../../shared/errors';

/** What a tool may use: the core's API as this connection's actor, and the persona it is bound to. */
export interface ToolScope {
  persona: string;
  call<M extends Method>(method: M, args: ArgsOf<M>): Promise<ResultOf<M>>;
}

/** A tool's answer: text for the model, and the same facts as data for programs (matching the tool's outputSchema). */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

/** MCP tool annotations: every Hearth tool works on the user's own data only (openWorldHint false). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** Changes stored data: not listed, and refused, on a read-only connection. */
  writes: boolean;
  hints: ToolHints;
  /** The arguments' JSON Schema, as listed to clients (generated from the zod schema). */
  inputSchema: Record<string, unknown>;
  /** The structuredContent's JSON Schema (generated from the zod schema). */
  outputSchema: Record<string, unknown>;
  /** Validates the raw arguments with the tool's zod schema, then runs it. */
  execute(raw: unknown, scope: ToolScope): Promise<ToolAnswer>;
}

type Shape = Record<string, z.ZodType>;

/**
 * A strict object schema whose every property carries a description — the
 * type demands one per key, so no argument goes unexplained to a model.
 */
export function described<T extends Shape>(shape: T, descriptions: { [K in keyof T]: string }): z.ZodObject<T, z.core.$strict> {
  const out: Shape = {};
  for (const [key, schema] of Object.entries(shape)) out[key] = schema.describe(descriptions[key as keyof T]);
  return z.strictObject(out) as z.ZodObject<T, z.core.$strict>;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

export function defineTool<S extends z.ZodType, O extends z.ZodType<Record<string, unknown>>>(
  spec: {
    name: string;
    title: string;
    description: string;
    writes: boolean;
    /** Deletes or replaces something (only meaningful for writes). */
    destructive?: boolean;
    /** Calling twice with the same arguments changes nothing more. */
    idempotent?: boolean;
    schema: S;
    output: O;
  },
  run: (args: z.output<S>, scope: ToolScope) => Promise<{ text: string; data: z.input<O> }>,
): McpTool {
  const { schema, output, destructive, idempotent, ...meta } = spec;
  return {
    ...meta,
    hints: {
      readOnlyHint: !spec.writes,
      destructiveHint: spec.writes && (destructive ?? false),
      idempotentHint: !spec.writes || (idempotent ?? false),
      openWorldHint: false,
    },
    inputSchema: jsonSchema(schema, 'input'),
    outputSchema: jsonSchema(output, 'output'),
    async execute(raw, scope) {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) {
        throw new AppError('invalid_args', `Invalid arguments for ${spec.name}: ${describeIssues(parsed.error)}. Nothing was changed; fix them and call again.`);
      }
      return run(parsed.data, scope) as Promise<ToolAnswer>;
    },
  };
}
