// The browser host and an MCP stdio server started on one data folder in the
// same instant (docs/mcp.md, "One database owner"): exactly one must own the
// folder (the host, which asks a stdio owner to hand it over) and the other
// must forward to it. One round here; src/mcp/start-together.test.ts runs a
// few, `npm run bench:faults -- --only "host and MCP together"` a hundred.
import { rmSync } from 'node:fs';
import { isToolError, resultText } from './mcp-client';
import { connectStdio, endpointOwner, lockOwner, spawnHostFromSource, type HostChild, type StdioChild } from './mcp-processes';
import { templateCopy } from './core';

/** A small seeded generator: the same seed gives the same delays. */
export { prng as seeded } from './synthetic-corpus';

export interface RoundResult {
  /** Who holds the lock and serves the endpoint once both are up: `host`, `stdio`, or `none`/`split` (a fault). */
  owner: 'host' | 'stdio' | 'none' | 'split';
  /** The stdio server's tool call answered (through the host, or from its own folder). */
  forwarded: boolean;
  /** The host refused to start (the defect: "already in use by another Hearth"). */
  refused: boolean;
  /** Which started first and how many ms later the other did. */
  order: string;
  detail: string;
}

/**
 * Starts both, the second `delayMs` after the first (which one is first is
 * `hostFirst`), then asks the stdio server for the memories and reads who owns
 * the folder.
 */
export async function startTogether(hostFirst: boolean, delayMs: number): Promise<RoundResult> {
  const dataDir = await templateCopy();
  const order = `${hostFirst ? 'host' : 'stdio'} first, the other ${delayMs} ms later`;
  let host: HostChild | null = null;
  let stdio: StdioChild | null = null;
  try {
    const pause = () => new Promise((r) => setTimeout(r, delayMs));
    const startHost = async () => {
      if (!hostFirst) await pause();
      return spawnHostFromSource(dataDir, 'start-together-token-0123456789');
    };
    const startStdio = async () => {
      if (hostFirst) await pause();
      return connectStdio(dataDir, 'main', 'together-tool');
    };
    const [h, s] = await Promise.allSettled([startHost(), startStdio()]);
    if (h.status === 'fulfilled') host = h.value;
    if (s.status === 'fulfilled') stdio = s.value;
    if (!stdio) return { owner: 'none', forwarded: false, refused: h.status === 'rejected', order, detail: `stdio did not start: ${(s as PromiseRejectedResult).reason}` };
    const call = await stdio.client.callTool({ name: 'list_memories', arguments: {} }, undefined, { timeout: 240_000 }).catch((e: unknown) => e);
    const forwarded = !(call instanceof Error) && !isToolError(call);
    const lock = lockOwner(dataDir);
    const endpoint = endpointOwner(dataDir);
    const hostPid = host?.child.pid ?? -1;
    const owner =
      lock === null
        ? 'none'
        : lock === hostPid && endpoint?.pid === hostPid
          ? 'host'
          : lock === stdio.pid() && endpoint?.pid === stdio.pid()
            ? 'stdio'
            : 'split';
    const refused = h.status === 'rejected';
    const why = refused ? String((h as PromiseRejectedResult).reason).split('\n').find((l) => /cannot start|in use/.test(l)) ?? String((h as PromiseRejectedResult).reason).slice(0, 300) : '';
    return { owner, forwarded, refused, order, detail: [why, forwarded ? '' : `call: ${call instanceof Error ? call.message : resultText(call)}`].filter(Boolean).join('; ') };
  } finally {
    await stdio?.close().catch(() => undefined);
    await host?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
