import { mcpArgs } from '../../shared/contract/mcp';
import { AppError } from '../../shared/errors';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { connectionInfo } from './connection-info';
import { writeListenerSetting } from './listener-setting';
import { listCalls, listClients, setClientEnabled } from './log-store';

export const mcpHandlers = {
  'mcp.clients': handler(mcpArgs['mcp.clients'], async (_args, ctx) => listClients(ctx.db)),

  'mcp.calls': handler(
    mcpArgs['mcp.calls'],
    async (args, ctx) => listCalls(ctx.db, args.client ?? null, args.limit),
  ),

  'mcp.setClientEnabled': handler(mcpArgs['mcp.setClientEnabled'], async (args, ctx, call) => {
    // Another AI tool must not switch clients on or off: only the user, in the app.
    if (call.actor !== 'user') throw new AppError('forbidden', 'Only the user can switch AI tools on or off.');
    const client = await setClientEnabled(ctx.db, args.name, args.enabled);
    ctx.events.emit('mcp.changed', { client: client.name });
    return client;
  }),

  'mcp.connectionInfo': handler(mcpArgs['mcp.connectionInfo'], async ({ persona }, ctx) => {
    await requirePersona(ctx.db, persona);
    return connectionInfo(ctx.mcpDoor, ctx.dataDir, persona);
  }),

  'mcp.setListener': handler(mcpArgs['mcp.setListener'], async ({ enabled }, ctx, call) => {
    if (call.actor !== 'user') throw new AppError('forbidden', 'Only the user can switch the MCP listener.');
    if (!ctx.mcpDoor.http?.switchable) {
      throw new AppError('forbidden', 'This Hearth always answers MCP at /mcp; there is no listener to switch.');
    }
    await writeListenerSetting(ctx.db, enabled);
    return ctx.mcpDoor.switchListener(enabled);
  }),

  'mcp.rotateToken': handler(mcpArgs['mcp.rotateToken'], async (_args, ctx, call) => {
    if (call.actor !== 'user') throw new AppError('forbidden', 'Only the user can replace the MCP token.');
    const state = await ctx.mcpDoor.rotateToken();
    if (!state) throw new AppError('forbidden', 'This Hearth’s MCP token is its start-up token (HEARTH_TOKEN); set a new one there.');
    return state;
  }),
};
