import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers every answer carries: no sniffing, no framing, no referrer (the page URL holds the token). */
export const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
} as const;

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/**
 * Reads the whole body, refusing anything above `limit` bytes without
 * buffering it. A moderately oversize body is read to its end and dropped, so
 * the client sees the 413 rather than a reset connection; a huge one is cut off.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const drainCap = limit * 2;
  if (Number(req.headers['content-length'] ?? 0) > drainCap) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > drainCap) break; // leaving the loop destroys the request stream
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  if (size > limit) throw new BodyTooLarge(limit);
  return Buffer.concat(chunks).toString('utf8');
}
