import type { McpConnectionInfo } from '../../shared/api';
import type { McpDoor } from '../context';

/** The server entry's key in an MCP host's config: one per persona, so several can sit side by side. */
export function serverKey(persona: string): string {
  return persona === 'main' ? 'hearth' : `hearth-${persona}`;
}

/** Config snippets with this install's absolute paths (the MCP host starts the command itself). */
export function connectionInfo(door: McpDoor, dataDir: string | null, persona: string): McpConnectionInfo {
  const launcher = door.launcher;
  const command = launcher?.command ?? 'node';
  const args = [...(launcher?.args ?? ['scripts/mcp.mjs']), '--persona', persona, ...(dataDir ? ['--data-dir', dataDir] : [])];
  const env = launcher?.env ?? {};
  const entry = { command, args, ...(Object.keys(env).length ? { env } : {}) };
  const key = serverKey(persona);
  const httpUrl = door.http ? `${door.http.url}?persona=${encodeURIComponent(persona)}` : null;
  return {
    dataDir: dataDir ?? ':memory:',
    command,
    args,
    env,
    claudeDesktop: JSON.stringify({ mcpServers: { [serverKey(persona)]: entry } }, null, 2),
    generic: JSON.stringify({ type: 'stdio', ...entry }, null, 2),
    cursor: JSON.stringify({ mcpServers: { [key]: entry } }, null, 2),
    vscode: JSON.stringify({ servers: { [key]: { type: 'stdio', ...entry } } }, null, 2),
    // The desktop listener's own token goes in; the browser host's (its whole API's) is left for the user to paste.
    httpSnippet: httpUrl ? JSON.stringify({ mcpServers: { [key]: { type: 'http', url: httpUrl, headers: { Authorization: `Bearer ${door.http?.token ?? '<token>'}` } } } }, null, 2) : null,
    http: door.http && httpUrl ? { ...door.http, url: httpUrl } : null,
  };
}
