// Test helpers: Hearth's doors as real child processes, run from the current source (bundled: source-build.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readEndpoint } from '../mcp/endpoint';
import { childScript } from './source-build';

export { readEndpoint };

export const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface HostChild {
  child: ChildProcess;
  port: number;
  token: string;
  output(): string;
  api<T>(method: string, args: unknown): Promise<T>;
  stop(): Promise<void>;
  /** SIGKILL: the host gets no chance to remove its endpoint file or lock; resolves once it is gone. */
  kill(): Promise<void>;
}

/** The browser host (src/host/index.ts) on a data dir; resolves once it prints its URL. */
export async function spawnHostFromSource(dataDir: string, token: string, timeoutMs = 240_000, port = 0, args: string[] = []): Promise<HostChild> {
  const child = spawn(process.execPath, [childScript('host'), ...args], {
    cwd: ROOT,
    env: { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_TOKEN: token, HEARTH_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const bound = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const check = () => {
      const m = /Hearth is running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the host exited before printing its URL:\n${log}`));
    });
  });
  return {
    child,
    port: bound,
    token,
    output: () => log,
    async api<T>(method: string, args: unknown): Promise<T> {
      const res = await fetch(`http://127.0.0.1:${bound}/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      const env = (await res.json()) as { ok: boolean; data?: T; error?: { message: string } };
      if (!env.ok) throw new Error(env.error?.message);
      return env.data as T;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface StdioChild {
  client: Client;
  pid(): number;
  stderr(): string;
  close(): Promise<void>;
}

/** An MCP host's view: the SDK's own client starting `src/mcp/stdio-main.ts` as a child process. */
export async function connectStdio(dataDir: string, persona: string, clientName: string, extra: string[] = []): Promise<StdioChild> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [childScript('mcp-stdio'), '--persona', persona, '--data-dir', dataDir, ...extra],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: () => transport.pid ?? -1, stderr: () => err, close: () => client.close() };
}

/** The SDK's own client over Streamable HTTP to a host's /mcp. */
export async function connectHttp(port: number, token: string, query: string, clientName: string): Promise<Client> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  const url = new URL(`http://127.0.0.1:${port}/mcp?${query}`);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** Which process holds the data folder's lock (the lock file names it). */
export function lockOwner(dataDir: string): number | null {
  try {
    return (JSON.parse(readFileSync(join(dataDir, 'hearth.lock'), 'utf8')) as { pid?: number }).pid ?? null;
  } catch {
    return null;
  }
}

export function endpointOwner(dataDir: string): { pid: number; kind: string } | null {
  const e = readEndpoint(dataDir);
  return e ? { pid: e.pid, kind: e.kind } : null;
}

/** Long timeouts: a tool call may wait for the folder to open (seconds on a loaded machine). */
export const SLOW = { timeout: 240_000 };
