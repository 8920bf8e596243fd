import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpListener, McpListenerOptions } from '../core';
import { bearerToken, isOwnHost, isOwnOrigin, sameToken } from '../host/auth';
import { BASE_HEADERS, sendText } from '../host/http-util';

/**
 * A small loopback server answering MCP at /mcp (the desktop app's listener,
 * and a stdio server that owns the folder, for the stdio servers of other AI
 * tools). The same checks as the browser host: 127.0.0.1 only, its own Host,
 * no foreign Origin, the Bearer token.
 */
export async function startMcpListener(opts: McpListenerOptions): Promise<McpListener> {
  let port = opts.port ?? 0;
  let inFlight = 0;
  let refusing = false;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(BASE_HEADERS)) res.setHeader(k, v);
    if (!isOwnHost(req.headers.host, port)) return sendText(res, 403, 'Foreign Host header refused.');
    if (!isOwnOrigin(req.headers.origin, port)) return sendText(res, 403, 'Foreign Origin refused.');
    if (!sameToken(bearerToken(req.headers), opts.token)) return sendText(res, 401, 'Missing or wrong token.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === '/handover' && req.method === 'POST' && opts.onHandover) {
      refusing = true;
      await opts.onHandover();
      // The folder is released; this listener has nothing left to serve once the answer is out.
      res.on('finish', () => void close());
      return sendText(res, 200, 'released');
    }
    if (url.pathname !== '/mcp') return sendText(res, 404, 'Not found.');
    // During a handover the caller retries against the new owner.
    if (refusing) return sendText(res, 503, 'Hearth is handing this data folder over; retry in a moment.', { 'retry-after': '1' });
    // Only calls count as busy: a client's GET stream for notifications stays open for the whole session.
    if (req.method === 'POST') {
      // One connection per call: a client never sends its next call on a socket this listener closed
      // when the app quit or the token changed (a loopback connect costs well under a millisecond).
      res.shouldKeepAlive = false;
      inFlight++;
      res.on('close', () => inFlight--);
    }
    await opts.sessions.handle(req, res, url);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      console.error(`mcp listener: ${req.method} ${req.url?.split('?')[0]} failed:`, e);
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  function close(): Promise<void> {
    closing ??= (async () => {
      await opts.sessions.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })();
    return closing;
  }

  return { port, url: `http://127.0.0.1:${port}/mcp`, busy: () => inFlight, close };
}
