/** What every call answers while a Hearth app holds the folder and serves no MCP endpoint (mcp/backend.ts). */
export const CONNECTIONS_OFF =
  'Hearth is running with AI-tool connections off: turn them on in Settings → Connections ("Let AI tools connect"), then try again.';
