import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a URL path names inside the renderer folder, or null (missing, or outside it). */
export function resolveStatic(rendererDir: string, pathname: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  if (rel === '/' || rel === '') rel = '/index.html';
  const root = resolve(rendererDir);
  const file = resolve(join(root, normalize(rel)));
  if (!file.startsWith(root + sep)) return null;
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

export function isHtml(file: string): boolean {
  return extname(file) === '.html';
}

/** Streams one file with its type; `extra` carries the CSP and cookie for the page. */
export function sendFile(res: ServerResponse, file: string, headOnly: boolean, extra: Record<string, string> = {}): void {
  const size = statSync(file).size;
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    // Hashed asset names change with every build; the page itself must never be stale.
    'cache-control': isHtml(file) ? 'no-store' : 'no-cache',
    ...extra,
  });
  if (headOnly) {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', (e) => res.destroy(e));
  stream.pipe(res);
}
