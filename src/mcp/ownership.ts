import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema, type Implementation } from '@modelcontextprotocol/sdk/types.js';
import { createCore, type Core } from '../core';
import { writeEndpoint, newToken } from '../core/mcp/endpoint';
import { McpHttpSessions } from '../core/mcp/http';
import { createMcpServer, type McpBinding } from '../core/mcp/server';
import { startMcpListener, type McpListener } from './listener';

/** A stdio server that opened the data folder itself because no Hearth was running. */
export interface Ownership {
  core: Core;
  listener: McpListener;
  /** This process's own MCP client of its core (what the stdio host's calls go through). */
  client: Client;
  /**
   * Lets go of the folder (sessions, the endpoint file, the database and its
   * lock). The listener stays up only during a handover, to answer it.
   */
  release(options?: { keepListener?: boolean }): Promise<void>;
}

/**
 * Opens the folder (takes its lock: fails with `locked` when someone else has
 * it), serves MCP on a loopback listener for the stdio servers of other AI
 * tools, and writes the endpoint file that points them — and a Hearth app that
 * starts meanwhile — here.
 */
export async function takeOwnership(
  dataDir: string,
  binding: McpBinding,
  clientInfo: Implementation,
  onHandover: () => Promise<void>,
  databaseUrl: string | null = null,
  /** A subscribed resource changed (passed on to the stdio host). */
  onResourceUpdated: (uri: string) => void = () => undefined,
): Promise<Ownership> {
  const core = await createCore({ dataDir, lockRole: 'mcp-stdio', ...(databaseUrl ? { databaseUrl } : {}) });
  let listener: McpListener | null = null;
  let removeEndpoint: (() => void) | null = null;
  try {
    // An unknown persona is not refused here: the server answers each call with the personas that exist (server.ts).
    const deps = { ctx: core.ctx, dispatch: core.dispatch };
    const token = newToken();
    listener = await startMcpListener({ sessions: new McpHttpSessions(deps), token, onHandover });
    removeEndpoint = writeEndpoint(dataDir, { port: listener.port, token, kind: 'mcp-stdio' });
    core.ctx.mcpDoor.http = { url: listener.url, listening: true, switchable: false, enabled: true };

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(deps, binding).connect(serverSide);
    const client = new Client(clientInfo);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onResourceUpdated(n.params.uri));
    await client.connect(clientSide);
    const l = listener;
    const remove = removeEndpoint;
    let released = false;
    return {
      core,
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
