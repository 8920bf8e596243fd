import { z } from 'zod';
import { time } from './common';

/** An AI tool that connected over MCP (its name from the initialize handshake). */
export const mcpClient = z.strictObject({
  name: z.string(),
  version: z.string().nullable(),
  enabled: z.boolean(),
  firstSeen: time,
  lastSeen: time,
  calls: z.number(),
  lastCall: z.strictObject({ tool: z.string(), persona: z.string(), at: time, ok: z.boolean() }).nullable(),
});

/** One line of the MCP call log (newest 1,000 kept). */
export const mcpCall = z.strictObject({
  id: z.number(),
  client: z.string(),
  tool: z.string(),
  persona: z.string(),
  at: time,
  ok: z.boolean(),
  error: z.string().nullable(),
  ms: z.number().nullable(),
});

/** Where this process answers MCP over HTTP. */
export const mcpHttpState = z.strictObject({
  url: z.string(),
  listening: z.boolean(),
  switchable: z
    .boolean()
    .describe('The desktop app\'s listener can be switched; the browser host always serves /mcp.'),
  enabled: z.boolean(),
  token: z
    .string()
    .optional()
    .describe("The desktop listener's own token (kept per install, rotatable), for the HTTP snippet; absent on the browser host."),
});

/** How other AI tools reach this Hearth: config snippets with this install's paths, and the listener. */
export const mcpConnectionInfo = z.strictObject({
  dataDir: z.string(),
  command: z.string().describe('The stdio command an MCP host runs (absolute paths), for the persona asked about.'),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  claudeDesktop: z.string().describe("Ready-to-paste JSON for Claude Desktop's claude_desktop_config.json."),
  generic: z.string().describe('The same server entry for any MCP host that takes {command, args, env}.'),
  cursor: z.string().describe("Ready-to-paste JSON for Cursor's mcp.json (`mcpServers`)."),
  vscode: z.string().describe('Ready-to-paste JSON for VS Code\'s mcp.json (`servers`, with `type: "stdio"`).'),
  httpSnippet: z
    .string()
    .nullable()
    .describe('Ready-to-paste JSON for a host that speaks Streamable HTTP (null when this process has no listener).'),
  http: mcpHttpState
    .nullable()
    .describe('Streamable HTTP: where a running Hearth answers MCP (null when this process has no listener).'),
});
