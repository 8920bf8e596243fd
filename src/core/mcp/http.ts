import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { personaId } from '../schemas';
import type { McpBinding, McpDeps } from './server';

// The MCP server and its transport load at the first /mcp request, not at start: a page that never
// meets an MCP client does not wait for them (docs/startup.md).
const loadServer = () =>
  Promise.all([import('./server'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]).then(([own, sdk]) => ({
    createMcpServer: own.createMcpServer,
    StreamableHTTPServerTransport: sdk.StreamableHTTPServerTransport,
  }));

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Any spelling of "read-only" in a query parameter's name: readOnly, readonly, read_only, READ-ONLY, … */
const mentionsReadOnly = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '') === 'readonly';

/**
 * `?persona=<id>[&readOnly=1]`: the persona and permission a connection is
 * bound to. Read-only has exactly one spelling; anything else that names it
 * (readOnly=true, readonly=1, read_only=1, readOnly=0&readOnly=1, …) is
 * refused rather than guessed at, so a mistyped read-only URL never yields a
 * writable connection.
 */
export function bindingFromUrl(url: URL): McpBinding | string {
  const persona = url.searchParams.get('persona') ?? '';
  if (!personaId.safeParse(persona).success) return 'Name the persona in the URL: /mcp?persona=<id> (lowercase letters, digits, - or _).';
  const ro = [...url.searchParams.entries()].filter(([k]) => mentionsReadOnly(k));
  if (ro.length === 0) return { persona, readOnly: false };
  if (ro.length === 1 && ro[0]![0] === 'readOnly' && ro[0]![1] === '1') return { persona, readOnly: true };
  return 'For a read-only connection add exactly "&readOnly=1" to the URL; any other read-only parameter is refused. For a writable one, leave it out.';
}

/**
 * The client's name and version, carried in the session id the client echoes
 * on every request. Not a secret and not trusted for access (the token is):
 * only what the client said at initialize, so a write's origin is
 * `mcp:<its name>` even though no process remembers the session.
 */
const ticketSchema = z.object({ n: z.string().max(200), v: z.string().max(64) }).strict();

function ticketFor(info: Implementation): string {
  return Buffer.from(JSON.stringify({ n: info.name.slice(0, 200), v: String(info.version).slice(0, 64) })).toString('base64url');
}

function clientFromTicket(header: string | string[] | undefined): Implementation | null {
  if (typeof header !== 'string' || header.length > 600) return null;
  try {
    const t = ticketSchema.safeParse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
    return t.success ? { name: t.data.n, version: t.data.v } : null;
  } catch {
    return null;
  }
}

function initializeInfo(body: unknown): Implementation | null {
  const msgs = Array.isArray(body) ? body : [body];
  for (const m of msgs) {
    const p = (m as { method?: unknown; params?: { clientInfo?: unknown } } | null) ?? null;
    if (p?.method === 'initialize') {
      const info = p.params?.clientInfo as { name?: unknown; version?: unknown } | undefined;
      return { name: typeof info?.name === 'string' ? info.name : 'unknown', version: typeof info?.version === 'string' ? info.version : '0' };
    }
  }
  return null;
}

async function readJson(req: IncomingMessage, max = 4 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new RangeError('body too large');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Streamable HTTP for one process's MCP endpoint, stateless: each POST gets a
 * fresh server bound to the URL's persona and permission, so nothing is lost
 * when Hearth restarts and a client never meets "session not found". The
 * caller has already checked Host, Origin and the token.
 */
export class McpHttpSessions {
  constructor(private readonly deps: McpDeps) {}

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const binding = bindingFromUrl(url);
    if (typeof binding === 'string') return jsonRpcError(res, 400, binding);
    // No server-to-client stream and nothing to end: a stateless endpoint answers GET and DELETE with 405, which clients expect.
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
      return;
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (e) {
      return jsonRpcError(res, e instanceof RangeError ? 413 : 400, e instanceof RangeError ? 'Request too large.' : 'Parse error: the body is not JSON.');
    }
    const init = initializeInfo(body);
    const clientInfo = init ?? clientFromTicket(req.headers['mcp-session-id']) ?? { name: 'unknown', version: '0' };
    const { createMcpServer, StreamableHTTPServerTransport } = await loadServer();
    const server = createMcpServer(this.deps, binding, { subscriptions: false, ...(init ? {} : { clientInfo }) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    if (init) res.setHeader('mcp-session-id', ticketFor(init));
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      await server.close();
    }
  }

  async close(): Promise<void> {
    // Nothing is kept between requests.
  }
}
