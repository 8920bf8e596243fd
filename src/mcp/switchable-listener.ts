import type { Core } from '../core';
import type { McpHttpState } from '../shared/api';
import { newToken, writeEndpoint } from '../core/mcp/endpoint';
import { loadHttpCredentials, saveHttpCredentials, type HttpCredentials } from '../core/mcp/http-credentials';
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
  private creds: HttpCredentials | null = null;

  constructor(
    private readonly core: Core,
    private readonly dataDir: string,
  ) {}

  /** Registers the switch with the core and restores the user's last choice. */
  async start(): Promise<void> {
    this.core.ctx.mcpDoor.onSwitch((enabled) => this.set(enabled));
    this.core.ctx.mcpDoor.onRotate(() => this.rotate());
    this.core.ctx.mcpDoor.http = this.state();
    if (await readListenerSetting(this.core.ctx.db)) await this.set(true);
  }

  async set(enabled: boolean): Promise<McpHttpState> {
    if (enabled && !this.listener) {
      const creds = (this.creds ??= await loadHttpCredentials(this.core.ctx.secrets));
      const sessions = new McpHttpSessions({ ctx: this.core.ctx, dispatch: this.core.dispatch });
      // The port of the last launch, so a configured HTTP client finds it again; any free one if it is taken now.
      this.listener = await startMcpListener({ sessions, token: creds.token, port: creds.port }).catch((e: NodeJS.ErrnoException) => {
        if (creds.port === 0 || e.code !== 'EADDRINUSE') throw e;
        return startMcpListener({ sessions, token: creds.token });
      });
      if (this.listener.port !== creds.port) {
        this.creds = { ...creds, port: this.listener.port };
        await saveHttpCredentials(this.core.ctx.secrets, this.creds);
      }
      this.removeEndpoint = writeEndpoint(this.dataDir, { port: this.listener.port, token: creds.token, kind: 'desktop' });
    } else if (!enabled && this.listener) {
      await this.stop();
    }
    const state = this.state();
    this.core.ctx.mcpDoor.http = state;
    return state;
  }

  /** A new token: the old one stops working at once (a listening listener restarts on the same port). */
  private async rotate(): Promise<McpHttpState> {
    const creds = this.creds ?? (await loadHttpCredentials(this.core.ctx.secrets));
    this.creds = { ...creds, token: newToken() };
    await saveHttpCredentials(this.core.ctx.secrets, this.creds);
    if (this.listener) {
      await this.stop();
      return this.set(true);
    }
    return this.state();
  }

  private state(): McpHttpState {
    const listening = this.listener !== null;
    return {
      url: this.listener?.url ?? 'http://127.0.0.1/mcp',
      listening,
      switchable: true,
      enabled: listening,
      ...(listening && this.creds ? { token: this.creds.token } : {}),
    };
  }

  async stop(): Promise<void> {
    this.removeEndpoint?.();
    this.removeEndpoint = null;
    const l = this.listener;
    this.listener = null;
    await l?.close();
  }
}
