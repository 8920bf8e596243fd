import { isAppError } from '../../shared/errors';
import { liveEndpoint } from './endpoint';

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
 * Opens the folder; when an MCP stdio server holds it, asks it to hand the
 * folder over and opens again (it then forwards to this process). Anything
 * else that holds the lock — another Hearth app — still refuses the start.
 */
export async function openWithHandover<T>(dataDir: string, open: () => Promise<T>, log: (m: string) => void = console.log): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await open();
    } catch (e) {
      if (!(isAppError(e) && e.code === 'locked') || round >= 3) throw e;
      if (!(await requestHandover(dataDir))) throw e;
      log('Hearth: an MCP server (started by another AI tool) had the data folder open; it handed it over and now forwards here.');
    }
  }
}
