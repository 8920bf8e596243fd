import { isAppError } from '../../shared/errors';
import { lockHolderInfo } from '../db/lock';
import { liveEndpoint } from './endpoint';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks a stdio MCP server that opened the folder (because no Hearth app was
 * running) to let go of it; true once it has released the database and its lock.
 */
export async function requestHandover(dataDir: string, timeoutMs = 20_000): Promise<boolean> {
  const e = liveEndpoint(dataDir);
  if (!e || e.kind !== 'mcp-stdio') return false;
  try {
    const res = await fetch(`http://127.0.0.1:${e.port}/handover`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.token}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.ok;
  } catch (err) {
    console.error(`Hearth: the MCP server holding ${dataDir} did not hand it over: ${(err as Error).message}`);
    return false;
  }
}

/**
 * Waits while a stdio MCP server holds the folder's lock but is still opening it
 * (its endpoint is written only once the database is open, seconds later):
 * `serving` once its endpoint is up, `changed` when the lock changed hands,
 * was released or its holder died, `timeout` after `limitMs`.
 */
async function stdioOwnerServing(dataDir: string, limitMs: number): Promise<'serving' | 'changed' | 'timeout'> {
  const first = lockHolderInfo(dataDir);
  if (first.state !== 'alive' || first.role !== 'mcp-stdio') return 'changed';
  const until = Date.now() + limitMs;
  for (;;) {
    const e = liveEndpoint(dataDir);
    if (e?.kind === 'mcp-stdio' && e.pid === first.pid) return 'serving';
    const now = lockHolderInfo(dataDir);
    if (now.state !== 'alive' || now.nonce !== first.nonce) return 'changed';
    if (Date.now() > until) return 'timeout';
    await sleep(25);
  }
}

/**
 * Opens the folder; when an MCP stdio server holds it, asks it to hand the
 * folder over and opens again (it then forwards to this process). A stdio
 * server that took the lock a moment earlier and is still opening is waited
 * for (its lock names it: `mcp-stdio`). Anything else that holds the lock —
 * another Hearth app — still refuses the start.
 */
export async function openWithHandover<T>(
  dataDir: string,
  open: () => Promise<T>,
  log: (m: string) => void = console.log,
  startingMs = 60_000,
): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await open();
    } catch (e) {
      if (!(isAppError(e) && e.code === 'locked') || round >= 6) throw e;
      const holder = lockHolderInfo(dataDir);
      // Released or left by a dead process since: open again (the lock takes a dead holder's place).
      if (holder.state !== 'alive') continue;
      if (holder.role === 'mcp-stdio' && !liveEndpoint(dataDir)) {
        const state = await stdioOwnerServing(dataDir, startingMs);
        if (state === 'changed') continue;
        if (state === 'timeout') throw e;
      }
      if (!(await requestHandover(dataDir))) throw e;
      log('Hearth: an MCP server (started by another AI tool) had the data folder open; it handed it over and now forwards here.');
    }
  }
}
