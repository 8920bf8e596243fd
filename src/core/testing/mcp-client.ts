// Test helper: the SDK's own client connected to a core's MCP server in memory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Core } from '../index';
import { createMcpServer, type McpBinding } from '../mcp/server';

export async function connectInMemory(core: Core, binding: McpBinding, clientName = 'test-client'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ ctx: core.ctx, dispatch: core.dispatch }, binding);
  await server.connect(serverSide);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** The text of a tool result (all text parts joined). */
export function resultText(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export function isToolError(r: unknown): boolean {
  return (r as CallToolResult).isError === true;
}
