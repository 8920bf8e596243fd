import { z } from 'zod';
import type { ArgsOf, Method, ResultOf } from '../../../shared/api';
import { AppError } from '../../../shared/errors';

/** What a tool may use: the core's API as this connection's actor, and the persona it is bound to. */
export interface ToolScope {
  persona: string;
  call<M extends Method>(method: M, args: ArgsOf<M>): Promise<ResultOf<M>>;
}

/** A tool's answer: text for the model, and the same facts as data for programs. */
export interface ToolAnswer {
  text: string;
  data?: Record<string, unknown>;
}

export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** Changes stored data: refused on a read-only connection. */
  writes: boolean;
  hints: ToolHints;
  /** The arguments' JSON Schema, as listed to clients. */
  inputSchema: Record<string, unknown>;
  /** Validates the raw arguments with the tool's zod schema, then runs it. */
  execute(raw: unknown, scope: ToolScope): Promise<ToolAnswer>;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

export function defineTool<S extends z.ZodType>(
  spec: { name: string; title: string; description: string; writes: boolean; hints?: ToolHints; schema: S },
  run: (args: z.output<S>, scope: ToolScope) => Promise<ToolAnswer>,
): McpTool {
  const { schema, ...meta } = spec;
  const jsonSchema = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  return {
    ...meta,
    hints: spec.hints ?? { readOnlyHint: !spec.writes },
    inputSchema: jsonSchema,
    async execute(raw, scope) {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) {
        throw new AppError('invalid_args', `Invalid arguments for ${spec.name}: ${describeIssues(parsed.error)}. Nothing was changed; fix them and call again.`);
      }
      return run(parsed.data, scope);
    },
  };
}
