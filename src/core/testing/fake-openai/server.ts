import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible HTTP server on 127.0.0.1 for tests (a fixture, never
 * used by production code). Each endpoint is a route module that registers a
 * handler here: see embeddings.ts and chat.ts beside this file.
 */
export type RouteHandler = (req: IncomingMessage, body: unknown, res: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  /** Base URL to give the `openai` client, ending in /v1. */
  baseURL: string;
  route(method: string, path: string, handler: RouteHandler): void;
  /** Every request received, in order (path and parsed JSON body). */
  requests: { method: string; path: string; body: unknown; authorization: string | undefined }[];
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, message: string, type = 'server_error'): void {
  sendJson(res, status, { error: { message, type, code: null, param: null } });
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export async function startFakeServer(): Promise<FakeServer> {
  const routes = new Map<string, RouteHandler>();
  const requests: FakeServer['requests'] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const body = await readBody(req);
    requests.push({ method: req.method ?? 'GET', path, body, authorization: req.headers.authorization });
    const handler = routes.get(`${req.method} ${path}`);
    if (!handler) return sendError(res, 404, `no fake route for ${req.method} ${path}`, 'not_found');
    try {
      await handler(req, body, res);
    } catch (e) {
      if (!res.headersSent) sendError(res, 500, (e as Error).message);
      else res.end();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    route(method, path, handler) {
      routes.set(`${method.toUpperCase()} /v1${path}`, handler);
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
