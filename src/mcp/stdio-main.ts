// `npm run -s mcp -- --persona <id> [--data-dir DIR] [--read-only]` (scripts/mcp.mjs loads the build of this file).
// First: files created from here on are private to the user (docs/data-safety.md).
import '../core/private-umask';
import { runStdioServer } from './stdio';

runStdioServer(process.argv.slice(2)).catch((e: unknown) => {
  console.error('Hearth MCP server failed:', e);
  process.exit(1);
});
