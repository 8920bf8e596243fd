import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { APP_VERSION } from '../info/handlers';
import { MCP_RESOURCES, resourceUri } from './resources';
import { plainMessage, protocolError } from './protocol-error';
import { listedTools, serverInstructions, type McpBinding } from './server';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceWatch } from './resource-watch';

/** Where the proxy's calls go: a client of the folder's owner (this process's own core, or a running Hearth). */
export interface BackendPort {
  run<T>(op: (client: Client) => Promise<T>): Promise<T>;
}

function asProtocolError(e: unknown): Error {
  return protocolError(e instanceof McpError ? e.code : ErrorCode.InternalError, plainMessage(e), e instanceof McpError ? e.data : undefined);
}

/**
 * The server an MCP host talks to over stdio. It holds no logic of its own:
 * tools and resources are listed here (the same lists as the owner's, so a
 * host sees them even when the owner cannot be reached), and every call goes
 * to the Hearth MCP server of whichever process owns the data folder, under
 * the host's own client name. A call the owner cannot take comes back as a
 * tool error saying why, never as a broken protocol.
 */
export function createProxyServer(binding: McpBinding, backend: BackendPort): Server {
  const server = new Server(
    { name: 'hearth', title: 'Hearth memory', version: APP_VERSION },
    { capabilities: { tools: {}, resources: { subscribe: true } }, instructions: serverInstructions(binding) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools(binding) }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    try {
      return (await backend.run((c) => c.callTool(req.params))) as CallToolResult;
    } catch (e) {
      if (e instanceof StreamableHTTPError || !(e instanceof McpError)) {
        return { content: [{ type: 'text', text: `Error: ${plainMessage(e)}` }], isError: true };
      }
      throw asProtocolError(e);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: MCP_RESOURCES.map((r) => ({ uri: resourceUri(binding.persona, r.key), name: r.name, title: r.title, description: r.description, mimeType: 'text/markdown' })),
  }));
  // Subscriptions reach the owner's server, which pushes while this process owns the folder. A running
  // app's HTTP door is stateless and cannot push, so there the proxy watches the block itself.
  const watch = new ResourceWatch(backend, (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined));
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    try {
      await backend.run((c) => c.subscribeResource(req.params));
      watch.stop(req.params.uri);
      return {};
    } catch {
      try {
        await watch.start(req.params.uri);
        return {};
      } catch (e) {
        throw asProtocolError(e);
      }
    }
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    if (watch.stop(req.params.uri)) return {};
    try {
      return await backend.run((c) => c.unsubscribeResource(req.params));
    } catch (e) {
      throw asProtocolError(e);
    }
  });
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    watch.stopAll();
  };
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    try {
      return await backend.run((c) => c.readResource(req.params));
    } catch (e) {
      throw asProtocolError(e);
    }
  });
  return server;
}
