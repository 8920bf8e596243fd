import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { personaId } from '../schemas';
import { createMcpServer, type McpBinding, type McpDeps } from './server';

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  binding: McpBinding;
  lastUsed: number;
}

export interface McpHttpOptions {
  /** Sessions kept at once; the least recently used goes first. */
  maxSessions?: number;
  /** A session unused this long is closed (its client re-initializes). */
  idleMs?: number;
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** `?persona=<id>[&readOnly=1]`: the persona and permission a connection is bound to. */
export function bindingFromUrl(url: URL): McpBinding | string {
  const persona = url.searchParams.get('persona') ?? '';
  if (!personaId.safeParse(persona).success) return 'Name the persona in the URL: /mcp?persona=<id> (lowercase letters, digits, - or _).';
  const ro = url.searchParams.get('readOnly');
  return { persona, readOnly: ro === '1' || ro === 'true' };
}

/**
 * Streamable HTTP sessions of one process's MCP endpoint. Stateful, because a
 * write's origin is the client's name from the initialize handshake; each
 * session keeps the persona and permission it was opened with. The caller has
 * already checked Host, Origin and the token.
 */
export class McpHttpSessions {
  private sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly idleMs: number;

  constructor(private readonly deps: McpDeps, options: McpHttpOptions = {}) {
    this.maxSessions = options.maxSessions ?? 64;
    this.idleMs = options.idleMs ?? 60 * 60_000;
  }

  get size(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const binding = bindingFromUrl(url);
    if (typeof binding === 'string') return jsonRpcError(res, 400, binding);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.sessions.get(id);
      if (!session) return jsonRpcError(res, 404, 'Session not found (Hearth restarted or the session expired): initialize again.');
      if (session.binding.persona !== binding.persona || session.binding.readOnly !== binding.readOnly) {
        return jsonRpcError(res, 400, `This session is bound to persona "${session.binding.persona}"${session.binding.readOnly ? ' (read-only)' : ''}.`);
      }
      session.lastUsed = Date.now();
      return session.transport.handleRequest(req, res);
    }
    const { rows } = await this.deps.ctx.db.query('SELECT 1 FROM personas WHERE id = $1 AND NOT importing', [binding.persona]);
    // Not 404: to an MCP client that means "session expired, initialize again".
    if (!rows.length) return jsonRpcError(res, 400, `Hearth has no persona "${binding.persona}".`);
    await this.sweep();
    await this.open(binding, req, res);
  }

  /** A request without a session: only an initialize opens one; anything else is answered by the transport and dropped. */
  private async open(binding: McpBinding, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const server = createMcpServer(this.deps, binding);
    let session: Session | null = null;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        session = { transport, server, binding, lastUsed: Date.now() };
        this.sessions.set(sid, session);
      },
      onsessionclosed: (sid) => {
        this.sessions.delete(sid);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (!session) await server.close();
  }

  /** Closes idle sessions, and the least recently used ones beyond the cap. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const byAge = [...this.sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const excess = Math.max(0, byAge.length - this.maxSessions + 1);
    for (const [i, [sid, s]] of byAge.entries()) {
      if (i < excess || now - s.lastUsed > this.idleMs) {
        this.sessions.delete(sid);
        await s.server.close();
      }
    }
  }

  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close()));
  }
}
