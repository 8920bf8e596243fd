import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EventBus, McpHttpSessions, UploadSink } from '../core';
import { contentSecurityPolicy } from '../shared/csp';
import { handleApi, type Dispatch } from './api-route';
import { bearerToken, cookieToken, isOwnHost, isOwnOrigin, queryToken, sameToken, tokenCookie } from './auth';
import { Downloads } from './downloads';
import { createEventsSocket } from './events-socket';
import { BASE_HEADERS, sendText } from './http-util';
import { isHtml, resolveStatic, sendFile } from './static';

export interface HostServerOptions {
  dispatch: Dispatch;
  /** Where knowledge.ingest's uploads are streamed (src/core/knowledge/upload.ts). */
  uploads: UploadSink;
  /** Where personas.import's uploads are streamed (src/core/portable/upload.ts). */
  imports?: UploadSink;
  events: EventBus;
  token: string;
  port: number;
  rendererDir: string;
  /** Streamable HTTP at /mcp?persona=<id>[&readOnly=1], for other AI tools (same token). */
  mcp?: McpHttpSessions;
}

export interface HostServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // dispatch answers unknown_method for it
  }
}

/** What the routes share; `port` is the one the server listens on, known once it does. */
interface HostState {
  opts: HostServerOptions;
  port: number;
  eventsSocket: ReturnType<typeof createEventsSocket>;
  downloads: Downloads;
}

/** Host/Origin first: a foreign page or a rebound DNS name learns nothing, not even 401 vs 404. */
function refuseForeign(req: IncomingMessage, port: number): string | null {
  if (!isOwnHost(req.headers.host, port)) return 'Foreign Host header refused.';
  if (!isOwnOrigin(req.headers.origin, port)) return 'Foreign Origin refused.';
  return null;
}

/** The page and its files: the token from ?token= (then kept in a cookie) or the cookie. */
function servePage(state: HostState, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const { opts, port } = state;
  const fromQuery = sameToken(queryToken(url), opts.token);
  if (!fromQuery && !sameToken(cookieToken(req.headers, port), opts.token)) {
    return sendText(res, 401, 'Missing or wrong token. Open the URL the Hearth host printed (it ends in ?token=…).');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
  const file = resolveStatic(opts.rendererDir, url.pathname);
  if (!file) {
    const missingBuild = url.pathname === '/' || url.pathname === '/index.html';
    return missingBuild
      ? sendText(res, 503, `The renderer is not built (no index.html in ${opts.rendererDir}). Run: npm run build`)
      : sendText(res, 404, 'Not found.');
  }
  const extra: Record<string, string> = {};
  if (isHtml(file)) {
    // 'self' covers the events WebSocket on this same host and port (CSP3), so the header equals the page's meta.
    extra['content-security-policy'] = contentSecurityPolicy();
    // Lets the page's own scripts, styles and reloads through without ?token= in every URL.
    if (fromQuery) extra['set-cookie'] = tokenCookie(port, opts.token);
  }
  sendFile(res, file, req.method === 'HEAD', extra);
}

/** /mcp, /api/<method> and /download/<id> take the Bearer token; anything else is the page. */
async function handle(state: HostState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { opts, port, downloads } = state;
  for (const [k, v] of Object.entries(BASE_HEADERS)) res.setHeader(k, v);
  const foreign = refuseForeign(req, port);
  if (foreign) return sendText(res, 403, foreign);
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  const bearer = url.pathname === '/mcp' || url.pathname.startsWith('/api/') || url.pathname.startsWith('/download/');
  if (!bearer) return servePage(state, req, res, url);
  if (!sameToken(bearerToken(req.headers), opts.token)) return sendText(res, 401, 'Missing or wrong token.');
  if (url.pathname === '/mcp') return opts.mcp ? opts.mcp.handle(req, res, url) : sendText(res, 404, 'Not found.');
  if (url.pathname.startsWith('/api/')) {
    return handleApi(req, res, safeDecode(url.pathname.slice('/api/'.length)), opts.dispatch, opts.uploads, { imports: opts.imports, downloads });
  }
  return downloads.serve(req, res, url.pathname.slice('/download/'.length));
}

/** The events WebSocket at /events: the token from ?token= or the Bearer header. */
function upgrade(state: HostState, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const refuse = (status: string) => {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  if (refuseForeign(req, state.port)) return refuse('403 Forbidden');
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${state.port}`);
  if (url.pathname !== '/events') return refuse('404 Not Found');
  const token = queryToken(url) ?? bearerToken(req.headers);
  if (!sameToken(token, state.opts.token)) return refuse('401 Unauthorized');
  state.eventsSocket.accept(req, socket, head);
}

/** Serves the built renderer and the core's dispatch on 127.0.0.1 only (docs/security.md). */
export async function startHostServer(opts: HostServerOptions): Promise<HostServer> {
  const state: HostState = { opts, port: opts.port, eventsSocket: createEventsSocket(opts.events), downloads: new Downloads() };
  const server = createServer((req, res) => {
    handle(state, req, res).catch((e: unknown) => {
      console.error(`host: ${req.method} ${req.url?.split('?')[0]} failed:`, e);
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(state, req, socket, head));
  server.on('clientError', (_e, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // 127.0.0.1 only: never reachable from another machine.
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  state.port = (server.address() as AddressInfo).port;
  const port = state.port;
  // After the caller has printed the URL, while the browser opens it.
  setImmediate(() => state.eventsSocket.load());

  return {
    port,
    url: `http://127.0.0.1:${port}/?token=${opts.token}`,
    async close() {
      await state.eventsSocket.close();
      await state.downloads.close();
      await opts.mcp?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
