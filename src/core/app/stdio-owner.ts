// The MCP stdio server's side of the core (docs/mcp.md, "One database owner"):
// the server an MCP host talks to, forwarding to whichever process owns the
// data folder, and — when no Hearth runs — this process owning it itself.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ResourceUpdatedNotificationSchema, type Implementation } from '@modelcontextprotocol/sdk/types.js';
import { Backend, type Ownership } from '../mcp/backend';
import type { McpListener, StartMcpListener } from '../mcp/doors';
import { createProxyServer } from '../mcp/proxy';
import type { McpBinding } from '../mcp/server';
import { startHearth } from './hearth';

/**
 * Opens the folder (takes its lock: fails with `locked` when someone else has
 * it), serves MCP on a loopback listener for the stdio servers of other AI
 * tools, and writes the endpoint file that points them — and a Hearth app that
 * starts meanwhile — here.
 */
async function takeOwnership(
  where: { dataDir: string; databaseUrl: string | null; binding: McpBinding; listen: StartMcpListener },
  clientInfo: Implementation,
  onHandover: () => Promise<void>,
  /** A subscribed resource changed (passed on to the stdio host). */
  onResourceUpdated: (uri: string) => void,
): Promise<Ownership> {
  const core = await startHearth({ door: 'mcp-stdio', dataDir: where.dataDir, ...(where.databaseUrl ? { databaseUrl: where.databaseUrl } : {}) });
  let listener: McpListener | null = null;
  let removeEndpoint: (() => void) | null = null;
  try {
    // An unknown persona is not refused here: the server answers each call with the personas that exist (mcp/server.ts).
    ({ listener, withdraw: removeEndpoint } = await core.mcp.listen(where.listen, 'mcp-stdio', onHandover));

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await (await core.mcp.server(where.binding)).connect(serverSide);
    const client = new Client(clientInfo);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onResourceUpdated(n.params.uri));
    await client.connect(clientSide);
    const l = listener;
    const remove = removeEndpoint;
    let released = false;
    return {
      listener: l,
      client,
      async release(options = {}) {
        if (released) return;
        released = true;
        try {
          await client.close();
          if (!options.keepListener) await l.close();
        } finally {
          // The endpoint goes first, so nobody is sent to a folder this process no longer holds.
          remove();
          await core.close();
        }
      },
    };
  } catch (e) {
    removeEndpoint?.();
    await listener?.close();
    await core.close();
    throw e;
  }
}

export interface McpStdioOptions {
  dataDir: string;
  /** The data on a PostgreSQL server, when this Hearth uses one. */
  databaseUrl: string | null;
  binding: McpBinding;
  /** How the door serves MCP over loopback HTTP while this process owns the folder. */
  listen: StartMcpListener;
  log(message: string): void;
}

export interface McpStdioServer {
  /** The server to connect to the stdio transport. */
  server: Server;
  /** Starts finding the folder's owner before the first call needs it (once the host has introduced itself). */
  warmUp(): void;
  /** Lets go of the owner: closes the forwarding client, or releases the folder this process owns. */
  close(): Promise<void>;
}

/** The MCP server an MCP host starts over stdio: every call goes to the folder's owner, found (or become) on demand. */
export function mcpStdioServer(options: McpStdioOptions): McpStdioServer {
  const { dataDir, databaseUrl, binding, listen } = options;
  let server: Server | null = null;
  const backend = new Backend({
    dataDir,
    binding,
    takeOwnership: (clientInfo, onHandover, onResourceUpdated) => takeOwnership({ dataDir, databaseUrl, binding, listen }, clientInfo, onHandover, onResourceUpdated),
    // The owner logs calls under the host's own name.
    clientInfo: () => server?.getClientVersion() ?? { name: 'unknown', version: '0' },
    log: options.log,
    onResourceUpdated: (uri) => void server?.sendResourceUpdated({ uri }).catch(() => undefined),
  });
  server = createProxyServer(binding, backend);
  return { server, warmUp: () => backend.warmUp(), close: () => backend.close() };
}
