// `npm run -s mcp -- --persona <id> [--data-dir DIR] [--read-only]`: the
// command an MCP host (Claude Desktop, an editor) starts. It speaks MCP on
// stdin/stdout and forwards to the Hearth that owns the data folder, or owns
// the folder itself when no Hearth runs.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseStdioArgs } from './args';
import { Backend } from './backend';
import { createProxyServer } from './proxy';

// stdout carries the protocol: anything else printed there would corrupt it.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

async function main(): Promise<void> {
  const args = parseStdioArgs(process.argv.slice(2), process.env);
  if (typeof args === 'string') {
    console.error(args);
    process.exit(2);
  }
  const binding = { persona: args.persona, readOnly: args.readOnly };
  let proxyClientInfo = () => ({ name: 'unknown', version: '0' });
  const backend = new Backend({
    dataDir: args.dataDir,
    binding,
    clientInfo: () => proxyClientInfo(),
    log: (m) => console.error(m),
  });
  const server = createProxyServer(binding, backend);
  proxyClientInfo = () => server.getClientVersion() ?? { name: 'unknown', version: '0' };

  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`Hearth MCP: ${why}, closing.`);
    try {
      await backend.close();
    } finally {
      process.exit(0);
    }
  };
  server.onclose = () => void stop('the MCP host closed the connection');
  process.stdin.on('end', () => void stop('stdin closed'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // Find the owner once the host has introduced itself: the owner logs calls under the host's name.
  server.oninitialized = () => backend.warmUp();
  await server.connect(new StdioServerTransport());
}

main().catch((e: unknown) => {
  console.error('Hearth MCP server failed:', e);
  process.exit(1);
});
