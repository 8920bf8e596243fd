import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { APP_VERSION } from '../core/info/handlers';
import { serverInstructions, type McpBinding } from '../core/mcp/server';

/** Where the proxy's calls go: a client of the folder's owner (this process's own core, or a running Hearth). */
export interface BackendPort {
  run<T>(op: (client: Client) => Promise<T>): Promise<T>;
}

/**
 * The server an MCP host talks to over stdio. It holds no logic of its own:
 * every request goes to the Hearth MCP server of whichever process owns the
 * data folder, under the host's own client name.
 */
export function createProxyServer(binding: McpBinding, backend: BackendPort): Server {
  const server = new Server(
    { name: 'hearth', title: 'Hearth memory', version: APP_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: serverInstructions(binding) },
  );
  server.setRequestHandler(ListToolsRequestSchema, (req) => backend.run((c) => c.listTools(req.params)));
  server.setRequestHandler(CallToolRequestSchema, (req) => backend.run((c) => c.callTool(req.params)) as never);
  server.setRequestHandler(ListResourcesRequestSchema, (req) => backend.run((c) => c.listResources(req.params)));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => backend.run((c) => c.readResource(req.params)));
  return server;
}
