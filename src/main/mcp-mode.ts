import type { McpLauncher } from '../core';

const FLAG = '--mcp';

/**
 * The MCP server's flags when the desktop binary was started as one
 * (`Hearth --mcp --persona main …`), else null. Everything after the flag
 * belongs to the server; Electron's own arguments come before it.
 */
export function mcpModeArgs(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(FLAG);
  return at < 0 ? null : argv.slice(at + 1);
}

/**
 * The command an MCP host runs to reach this install: the app binary itself in
 * its `--mcp` mode. An unpackaged app (electron-vite dev) is Electron plus the
 * app folder, which must come first.
 */
export function mcpLauncher(execPath: string, unpackagedAppPath: string | null): McpLauncher {
  return { command: execPath, args: [...(unpackagedAppPath ? [unpackagedAppPath] : []), FLAG], env: {} };
}
