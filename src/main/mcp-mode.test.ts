import { describe, expect, it } from 'vitest';
import { McpDoorState } from '../core/mcp/door';
import { connectionInfo } from '../core/mcp/connection-info';
import { parseStdioArgs } from '../mcp/args';
import { mcpLauncher, mcpModeArgs } from './mcp-mode';

describe('the desktop binary as an MCP stdio server', () => {
  it('a normal launch is not MCP mode; Electron arguments before --mcp are not the server’s', () => {
    expect(mcpModeArgs(['/opt/Hearth/hearth'])).toBeNull();
    expect(mcpModeArgs(['/opt/Hearth/hearth', '--data-dir', '/d'])).toBeNull();
    expect(mcpModeArgs(['/usr/bin/electron', '/src/app', '--mcp', '--persona', 'work'])).toEqual(['--persona', 'work']);
  });

  it('the snippet the Connections view shows starts the app binary itself (no ELECTRON_RUN_AS_NODE), and its flags parse back', () => {
    for (const appPath of [null, '/src/app']) {
      const door = new McpDoorState();
      door.launcher = mcpLauncher('/opt/Hearth/hearth', appPath);
      const info = connectionInfo(door, '/home/u/.config/Hearth', 'work');
      expect(info.command).toBe('/opt/Hearth/hearth');
      expect(info.env).toEqual({});
      expect(info.claudeDesktop).not.toContain('ELECTRON_RUN_AS_NODE');
      const argv = [info.command, ...info.args];
      const serverFlags = mcpModeArgs(argv);
      expect(serverFlags).not.toBeNull();
      expect(parseStdioArgs(serverFlags!, {})).toEqual({ persona: 'work', dataDir: '/home/u/.config/Hearth', readOnly: false, databaseUrl: null });
    }
  });
});
