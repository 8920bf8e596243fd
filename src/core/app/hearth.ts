// startHearth: how each door (Electron's main process, the browser host, the
// MCP stdio server) opens the core — its own lock role, the prepared empty
// database for a new folder, and the handover from an MCP stdio server that
// opened the folder while no Hearth ran (docs/mcp.md, "One database owner").
import { appTemplate } from '../db/pgdata-template';
import { openWithHandover } from '../mcp/handover';
import { createCore } from './core';
import type { Core, CoreOptions } from './options';
import { warmRecallAfterStart } from './warm-up';

/** The door that starts Hearth; its lock names it, so another door starting meanwhile knows what to wait for. */
export type DoorKind = 'desktop' | 'host' | 'mcp-stdio';

export interface HearthOptions extends Omit<CoreOptions, 'dataDir' | 'lockRole'> {
  door: DoorKind;
  dataDir: string;
}

export async function startHearth(options: HearthOptions): Promise<Core> {
  const { door, ...rest } = options;
  const open = () =>
    createCore({
      // The app's doors start a new folder from the prepared template; a stdio server opens it as it is.
      ...(door === 'mcp-stdio' ? {} : { pgdataTemplate: appTemplate() }),
      ...rest,
      lockRole: door,
    });
  // The stdio server is the one that hands over: it never asks for the folder itself.
  return door === 'mcp-stdio' ? open() : warmRecallAfterStart(await openWithHandover(options.dataDir, open));
}
