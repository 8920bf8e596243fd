import { z } from 'zod';
import { MCP_CLIENT_NAME, personaId } from './fields';
import { MCP_LOG_KEEP } from './limits';

const clientName = z.string().regex(MCP_CLIENT_NAME, 'not a client name Hearth has seen');

export const mcpArgs = {
  'mcp.clients': z.object({}).strict(),
  'mcp.calls': z.object({ client: clientName.optional(), limit: z.number().int().min(1).max(MCP_LOG_KEEP).default(200) }).strict(),
  'mcp.setClientEnabled': z.object({ name: clientName, enabled: z.boolean() }).strict(),
  'mcp.connectionInfo': z.object({ persona: personaId }).strict(),
  /** The desktop app's local MCP listener (the browser host always serves /mcp). */
  'mcp.setListener': z.object({ enabled: z.boolean() }).strict(),
  'mcp.rotateToken': z.object({}).strict(),
};
