import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

// The endpoint file: how an MCP stdio server finds the process that owns a
// data folder, to forward to it instead of opening the database a second time.
// Written by whichever process owns the folder, private to the user, removed on exit.
export const ENDPOINT_FILE = 'mcp-endpoint.json';

const endpointSchema = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(16).max(200),
  /** Who owns the folder: the browser host, the desktop app, or a stdio server with no app running. */
  kind: z.enum(['host', 'desktop', 'mcp-stdio']),
  since: z.string(),
});

export type Endpoint = z.infer<typeof endpointSchema>;

export function endpointPath(dataDir: string): string {
  return join(dataDir, ENDPOINT_FILE);
}

/** A fresh token for a listener that has none of its own (the desktop app, a stdio owner). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Writes the file atomically (0600, then rename) and returns how to remove it — only while it is still ours. */
export function writeEndpoint(dataDir: string, e: Omit<Endpoint, 'pid' | 'since'>): () => void {
  const full: Endpoint = { ...e, pid: process.pid, since: new Date().toISOString() };
  const path = endpointPath(dataDir);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(full), { mode: 0o600 });
  renameSync(tmp, path);
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    const now = readEndpoint(dataDir);
    if (now?.pid !== process.pid || now.port !== full.port) return;
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
}

/** The file's content, or null when it is missing or unreadable (a half-written or foreign file counts as none). */
export function readEndpoint(dataDir: string): Endpoint | null {
  let raw: string;
  try {
    raw = readFileSync(endpointPath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const parsed = endpointSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // not JSON: a torn write of an older version; the lock decides ownership
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The endpoint of a running owner, or null (no file, or its process is gone). */
export function liveEndpoint(dataDir: string): Endpoint | null {
  const e = readEndpoint(dataDir);
  return e && e.pid !== process.pid && alive(e.pid) ? e : null;
}

export function mcpUrl(e: Pick<Endpoint, 'port'>): string {
  return `http://127.0.0.1:${e.port}/mcp`;
}
