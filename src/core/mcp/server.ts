import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type Implementation,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallMeta } from '../../shared/actor';
import type { ArgsOf, Envelope, Method, ResultOf } from '../../shared/api';
import { AppError, isAppError } from '../../shared/errors';
import { APP_VERSION } from '../info/handlers';
import type { CoreContext } from '../context';
import { originOf, sanitiseClientName } from './client-name';
import { protocolError } from './protocol-error';
import { logCall, touchClient } from './log-store';
import { MCP_RESOURCES, resourceUri } from './resources';
import { MCP_TOOLS, type McpTool, type ToolScope } from './tools';

/** What the MCP server needs from the core: its context (database, events, clock) and its dispatch. */
export interface McpDeps {
  ctx: Pick<CoreContext, 'db' | 'events' | 'now'>;
  dispatch(method: string, args: unknown, meta: CallMeta): Promise<Envelope<unknown>>;
}

/** A connection is bound to one persona from its configuration, and may be read-only. */
export interface McpBinding {
  persona: string;
  readOnly: boolean;
}

/** What the server tells a model about itself at initialize. */
export function serverInstructions(binding: McpBinding): string {
  const head = `This is the user's own long-term memory, kept by the Hearth app on their computer (persona "${binding.persona}"). `;
  if (binding.readOnly) {
    return (
      head +
      "This connection is read-only: search it and read the user model before answering questions about the user's past, preferences or projects, " +
      'but it cannot save, change or delete anything — if the user wants something remembered, tell them to add it in Hearth.'
    );
  }
  return (
    head +
    "Search it before answering questions about the user's past, preferences or projects; save durable new facts with add_memory " +
    '(supersede_memory when a fact has changed); never delete unless the user asks for that one memory.'
  );
}

/** The tools a connection lists: a read-only one sees only the tools that read. */
export function toolsFor(binding: McpBinding): McpTool[] {
  return MCP_TOOLS.filter((t) => !binding.readOnly || !t.writes);
}

/** The tools/list answer for a connection (the same in every door: the stdio proxy lists them itself). */
export function listedTools(binding: McpBinding): Tool[] {
  return toolsFor(binding).map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as Tool['inputSchema'],
    outputSchema: t.outputSchema as Tool['outputSchema'],
    annotations: { title: t.title, ...t.hints },
  }));
}

/**
 * The one message for a connection whose persona does not exist (any more), naming those that do,
 * or whose persona the person closed to other AI tools (docs/privacy.md).
 */
async function missingPersona(deps: McpDeps, persona: string): Promise<AppError | null> {
  const { rows } = await deps.ctx.db.query<{ id: string; name: string; mcp: boolean }>('SELECT id, name, mcp FROM personas WHERE NOT importing ORDER BY id');
  const found = rows.find((r) => r.id === persona);
  if (found && !found.mcp) {
    return new AppError(
      'forbidden',
      `The user has closed the persona "${found.name}" to other AI tools; nothing was read or changed. ` +
        'They can open it again in Hearth (the persona’s settings → “Other AI tools may use it”).',
    );
  }
  if (found) return null;
  return new AppError(
    'not_found',
    `Hearth has no persona "${persona}" (it has: ${rows.map((r) => r.id).join(', ') || 'none'}). ` +
      'Change the persona in this connection’s configuration (--persona or ?persona=), then restart the connection.',
  );
}

type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** Who is calling: the client's sanitised name (its actor is `mcp:<name>`) and version. */
type ClientOf = () => { name: string; version: string | null };

/** Runs one checked, logged operation on a connection (see `guardedRunner`). */
type Guarded = <T>(label: string, writes: boolean, run: (scope: ToolScope) => Promise<T>) => Promise<Outcome<T>>;

/**
 * One MCP session's server. Every tool call and resource read is checked (the
 * client switched on, the connection's write permission), validated, run
 * through the core's dispatch as actor `mcp:<client>`, and logged.
 */
export function createMcpServer(
  deps: McpDeps,
  binding: McpBinding,
  options: { clientInfo?: Implementation; /** false where no stream outlives a request (stateless HTTP). */ subscriptions?: boolean } = {},
): Server {
  const subscriptions = options.subscriptions ?? true;
  const server = new Server(
    { name: 'hearth', title: 'Hearth memory', version: APP_VERSION },
    {
      capabilities: { tools: {}, resources: subscriptions ? { subscribe: true } : {} },
      instructions: serverInstructions(binding),
    },
  );
  const client: ClientOf = () => {
    // A stateless HTTP request's server never saw the initialize: the client's name comes with the request (http.ts).
    const info = options.clientInfo ?? server.getClientVersion();
    return { name: sanitiseClientName(info?.name), version: typeof info?.version === 'string' ? info.version.slice(0, 64) : null };
  };
  const guarded = guardedRunner(deps, binding, client);
  serveTools(server, binding, guarded);
  serveResources(server, binding, guarded);
  if (subscriptions) watchResources(server, deps, binding, (name) => toolScope(deps, binding, name), () => client().name);
  return server;
}

/** The core's API as this client's actor, bound to the connection's persona. */
function toolScope(deps: McpDeps, binding: McpBinding, clientName: string): ToolScope {
  const meta: CallMeta = { actor: originOf(clientName) };
  return {
    persona: binding.persona,
    async call<M extends Method>(method: M, args: ArgsOf<M>): Promise<ResultOf<M>> {
      const res = await deps.dispatch(method, args, meta);
      if (!res.ok) throw AppError.from(res.error);
      return res.data as ResultOf<M>;
    },
  };
}

/**
 * Checks a call may run (the client switched on, the persona there and open to it, a write on a
 * writable connection), runs it, and logs it; the answer is never lost to a failed log write.
 */
function guardedRunner(deps: McpDeps, binding: McpBinding, client: ClientOf): Guarded {
  return async <T>(label: string, writes: boolean, run: (scope: ToolScope) => Promise<T>): Promise<Outcome<T>> => {
    const started = performance.now();
    const { name, version } = client();
    let outcome: Outcome<T>;
    try {
      if (!(await touchClient(deps.ctx.db, name, version, deps.ctx.now()))) {
        throw new AppError('forbidden', `The user has switched off "${name}" in Hearth (Settings → Connections); ask them to switch it on.`);
      }
      const noPersona = await missingPersona(deps, binding.persona);
      if (noPersona) throw noPersona;
      if (writes && binding.readOnly) {
        throw new AppError('forbidden', `This connection to Hearth is read-only: ${label} was refused and nothing was changed.`);
      }
      outcome = { ok: true, value: await run(toolScope(deps, binding, name)) };
    } catch (e) {
      if (!isAppError(e)) console.error(`[mcp] ${label} failed:`, e);
      outcome = { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    const record = { client: name, tool: label, persona: binding.persona, ok: outcome.ok, error: outcome.ok ? null : outcome.message, ms: performance.now() - started };
    try {
      await logCall(deps.ctx.db, record, deps.ctx.now());
      deps.ctx.events.emit('mcp.changed', { client: name });
    } catch (e) {
      console.error('[mcp] could not log a call:', e);
    }
    return outcome;
  };
}

/** tools/list and tools/call: a failed call is a tool result with isError, which the model reads. */
function serveTools(server: Server, binding: McpBinding, guarded: Guarded): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools(binding) }));

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const tool = MCP_TOOLS.find((t) => t.name === req.params.name);
    const label = tool ? tool.name : String(req.params.name).slice(0, 64);
    const out = await guarded(label, tool?.writes ?? false, async (scope) => {
      if (!tool) throw new AppError('invalid_args', `There is no tool "${label}". Tools: ${toolsFor(binding).map((t) => t.name).join(', ')}.`);
      return tool.execute(req.params.arguments, scope);
    });
    if (!out.ok) return { content: [{ type: 'text', text: `Error: ${out.message}` }], isError: true };
    return { content: [{ type: 'text', text: out.value.text }], structuredContent: out.value.data };
  });
}

/** resources/list and resources/read: a failed read is a protocol error. */
function serveResources(server: Server, binding: McpBinding, guarded: Guarded): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: MCP_RESOURCES.map((r) => ({ uri: resourceUri(binding.persona, r.key), name: r.name, title: r.title, description: r.description, mimeType: 'text/markdown' })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const resource = MCP_RESOURCES.find((r) => resourceUri(binding.persona, r.key) === req.params.uri);
    if (!resource) throw protocolError(ErrorCode.InvalidParams, `No resource ${req.params.uri.slice(0, 200)} on this connection.`);
    const out = await guarded(`read:${resource.key}`, false, (scope) => resource.read(scope));
    if (!out.ok) throw protocolError(ErrorCode.InvalidRequest, out.message);
    return { contents: [{ uri: req.params.uri, mimeType: 'text/markdown', text: out.value }] };
  });
}

/**
 * resources/subscribe: after a write that changes a subscribed block (the
 * persona's memories or user model), the client gets
 * notifications/resources/updated — only when the block's text changed.
 */
function watchResources(server: Server, deps: McpDeps, binding: McpBinding, scopeFor: (client: string) => ToolScope, clientName: () => string): void {
  const watched = new Map<string, { key: string; last: string }>();
  let stopEvents: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const dirty = new Set<string>();

  const recheck = async () => {
    timer = null;
    const keys = new Set(dirty);
    dirty.clear();
    for (const [uri, w] of watched) {
      if (!keys.has(w.key)) continue;
      const resource = MCP_RESOURCES.find((r) => r.key === w.key)!;
      try {
        const now = await resource.read(scopeFor(clientName()));
        if (now === w.last || !watched.has(uri)) continue;
        w.last = now;
        await server.sendResourceUpdated({ uri });
      } catch (e) {
        console.error(`[mcp] could not re-read ${uri}:`, e);
      }
    }
  };
  const mark = (key: string) => {
    dirty.add(key);
    // A batch of writes (an import, a review) gives one look, not one per row.
    timer ??= setTimeout(() => void recheck(), 100);
  };

  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    const resource = MCP_RESOURCES.find((r) => resourceUri(binding.persona, r.key) === req.params.uri);
    if (!resource) throw protocolError(ErrorCode.InvalidParams, `No resource ${req.params.uri.slice(0, 200)} on this connection.`);
    const last = await resource.read(scopeFor(clientName())).catch((e: unknown) => {
      throw protocolError(ErrorCode.InvalidRequest, e instanceof Error ? e.message : String(e));
    });
    watched.set(req.params.uri, { key: resource.key, last });
    stopEvents ??= deps.ctx.events.subscribe((name, payload) => {
      const persona = (payload as { persona?: unknown }).persona;
      if (persona !== binding.persona) return;
      if (name === 'memories.changed') mark('top-memories');
      else if (name === 'userModel.changed') mark('user-model');
    });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    watched.delete(req.params.uri);
    if (!watched.size) {
      stopEvents?.();
      stopEvents = null;
    }
    return {};
  });
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    stopEvents?.();
    stopEvents = null;
    if (timer) clearTimeout(timer);
  };
}
