// The composition root's face: the one module the shells (src/main, src/host,
// src/mcp) import from the core. createCore (app/core.ts) opens the database,
// builds the context (src/core/context.ts) and wires the handler table
// (app/handlers.ts) and the queues (app/queues.ts) to it; startHearth
// (app/hearth.ts) is how a door opens it. Domains never import this file or
// app/; they see each other and the context's interfaces.
import type { McpStdioOptions, McpStdioServer } from './app/stdio-owner';

export { createCore } from './app/core';
export type { Core, CoreOptions } from './app/options';
export { startHearth, type DoorKind, type HearthOptions } from './app/hearth';
export type { McpStdioOptions, McpStdioServer };

/** The MCP stdio server (app/stdio-owner.ts), loaded only by the door that runs it: the other doors start without its SDK parts (docs/startup.md). */
export async function mcpStdioServer(options: McpStdioOptions): Promise<McpStdioServer> {
  return (await import('./app/stdio-owner')).mcpStdioServer(options);
}

// What the doors hand in or read, by name (docs/architecture.md, "Floors").
export type { McpLauncher } from './context';
export { replaceSecretFile, type SecretStore, setSecretFileAside } from './secrets/store';
export { EventBus } from './events';
export { dataDirFlag, databaseUrlFrom, defaultDataDir, workspaceDirFrom } from './data-dir';
export { guardPagePaths, pathRefused } from './page-paths';
export { personaId } from './schemas';
export type { UploadSink } from './knowledge/upload';
export type { StagingWriter } from './knowledge/staging';
export { sizeText } from './knowledge/size-text';
export type { McpHttpSessions } from './mcp/http';
export type { McpListener, McpListenerOptions, StartMcpListener, SwitchableMcpListener } from './mcp/doors';
export { CONNECTIONS_OFF } from './mcp/connections-off';
