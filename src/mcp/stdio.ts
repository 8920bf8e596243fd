// The MCP server on stdin/stdout that an MCP host (Claude Desktop, an editor)
// starts: it forwards to the Hearth that owns the data folder, or owns the
// folder itself when no Hearth runs (src/core/app/stdio-owner.ts). Two doors
// start it: `npm run -s mcp` (stdio-main.ts) and the desktop binary's `--mcp`
// mode (src/main/index.ts), which packaged builds need because their fuses
// refuse ELECTRON_RUN_AS_NODE.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { mcpStdioServer } from '../core';
import { parseStdioArgs } from './args';
import { startMcpListener } from './listener';

/** Serves MCP on this process's stdin/stdout until the host disconnects; `argv` holds only the server's flags. */
export async function runStdioServer(argv: readonly string[]): Promise<void> {
  // stdout carries the protocol: anything else printed there would corrupt it.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const args = parseStdioArgs([...argv], process.env);
  if (typeof args === 'string') {
    console.error(args);
    process.exit(2);
  }
  const { server, warmUp, close } = await mcpStdioServer({
    dataDir: args.dataDir,
    databaseUrl: args.databaseUrl,
    binding: { persona: args.persona, readOnly: args.readOnly },
    listen: startMcpListener,
    log: (m) => console.error(m),
  });

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`Hearth MCP: ${why}, closing.`);
    try {
      await close();
    } finally {
      process.exit(0);
    }
  };
  server.onclose = () => void stop('the MCP host closed the connection');
  process.stdin.on('end', () => void stop('stdin closed'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // Find the owner once the host has introduced itself: the owner logs calls under the host's name.
  server.oninitialized = warmUp;
  await server.connect(new StdioServerTransport());
}
