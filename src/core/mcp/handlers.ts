import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { MCP_CLIENT_NAME, personaId } from '../schemas';
import { connectionInfo } from './connection-info';
import { writeListenerSetting } from './listener-setting';
import { listCalls, listClients, MCP_LOG_KEEP, setClientEnabled } from './log-store';

const clientName = z.string().regex(MCP_CLIENT_NAME, 'not a client name Hearth has seen');

export const mcpHandlers = {
  'mcp.clients': handler(z.object({}).strict(), async (_args, ctx) => listClients(ctx.db)),

  'mcp.calls': handler(
    z.object({ client: clientName.optional(), limit: z.number().int().min(1).max(MCP_LOG_KEEP).default(200) }).strict(),
    async (args, ctx) => listCalls(ctx.db, args.client ?? null, args.limit),
  ),

  'mcp.setClientEnabled': handler(z.object({ name: clientName, enabled: z.boolean() }).strict(), async (args, ctx, call) => {
    // Another AI tool must not switch clients on or off: only the user, in the app.
    if (call.actor !== 'user') throw new AppError('forbidden', 'Only the user can switch AI tools on or off.');
    const client = await setClientEnabled(ctx.db, args.name, args.enabled);
    ctx.events.emit('mcp.changed', { client: client.name });
    return client;
  }),

  'mcp.connectionInfo': handler(z.object({ persona: personaId }).strict(), async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return connectionInfo(ctx.mcpDoor, ctx.dataDir, persona);
  }),

  'mcp.setListener': handler(z.object({ enabled: z.boolean() }).strict(), async ({ enabled }, ctx, call) => {
    if (call.actor !== 'user') throw new AppError('forbidden', 'Only the user can switch the MCP listener.');
    if (!ctx.mcpDoor.http?.switchable) {
      throw new AppError('forbidden', 'This Hearth always answers MCP at /mcp; there is no listener to switch.');
    }
    await writeListenerSetting(ctx.db, enabled);
    return ctx.mcpDoor.switchListener(enabled);
  }),

  'mcp.rotateToken': handler(z.object({}).strict(), async (_args, ctx, call) => {
    if (call.actor !== 'user') throw new AppError('forbidden', 'Only the user can replace the MCP token.');
    const state = await ctx.mcpDoor.rotateToken();
    if (!state) throw new AppError('forbidden', 'This Hearth’s MCP token is its start-up token (HEARTH_TOKEN); set a new one there.');
    return state;
  }),
};
