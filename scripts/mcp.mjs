// `npm run -s mcp -- --persona <id> [--data-dir DIR] [--read-only]`: Hearth's
// MCP server over stdio, for Claude Desktop and other MCP hosts (src/mcp/stdio-main.ts).
// An MCP host should run `node <this file> …` directly: `npm run` without -s
// prints its own banner on stdout, which is the protocol's channel.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, ROOT } from './build-if-needed.mjs';

buildIfNeeded({ toStderr: true });
await import(pathToFileURL(join(ROOT, 'out', 'main', 'mcp.js')).href);
