import type { Core } from '../core';
import type { McpHttpState } from '../shared/api';
import { newToken, writeEndpoint } from '../core/mcp/endpoint';
import { McpHttpSessions } from '../core/mcp/http';
import { readListenerSetting } from '../core/mcp/listener-setting';
import { startMcpListener, type McpListener } from './listener';

/**
 * The desktop app's MCP listener, which the user switches on in Settings →
 * Connections. The same switch serves both ways in: Streamable HTTP for other
 * AI tools, and forwarding for the stdio servers they start (which find it
 * through the endpoint file). Off, the app serves no port at all, and a stdio
 * server started meanwhile waits, then says how to switch it on.
 */
export class SwitchableMcpListener {
  private listener: McpListener | null = null;
  private removeEndpoint: (() => void) | null = null;
  private readonly token = newToken();

  constructor(
    private readonly core: Core,
    private readonly dataDir: string,
  ) {}

  /** Registers the switch with the core and restores the user's last choice. */
  async start(): Promise<void> {
    this.core.ctx.mcpDoor.onSwitch((enabled) => this.set(enabled));
    this.core.ctx.mcpDoor.http = this.state();
    if (await readListenerSetting(this.core.ctx.db)) await this.set(true);
  }

  async set(enabled: boolean): Promise<McpHttpState> {
    if (enabled && !this.listener) {
      const sessions = new McpHttpSessions({ ctx: this.core.ctx, dispatch: this.core.dispatch });
      this.listener = await startMcpListener({ sessions, token: this.token });
      this.removeEndpoint = writeEndpoint(this.dataDir, { port: this.listener.port, token: this.token, kind: 'desktop' });
    } else if (!enabled && this.listener) {
      await this.stop();
    }
    const state = this.state();
    this.core.ctx.mcpDoor.http = state;
    return state;
  }

  private state(): McpHttpState {
    return { url: this.listener?.url ?? 'http://127.0.0.1/mcp', listening: this.listener !== null, switchable: true, enabled: this.listener !== null };
  }

  async stop(): Promise<void> {
    this.removeEndpoint?.();
    this.removeEndpoint = null;
    const l = this.listener;
    this.listener = null;
    await l?.close();
  }
}
