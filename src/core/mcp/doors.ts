// What a door needs to offer MCP on this core (docs/mcp.md): sessions for an
// HTTP route, an in-process server, the endpoint file that points MCP stdio
// servers here, and the desktop app's switchable listener. The door brings
// only the transport (its HTTP listener, stdio).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpHttpState } from '../../shared/api';
import type { CoreContext, McpLauncher } from '../context';
import { type Endpoint, newToken, writeEndpoint } from './endpoint';
import { loadHttpCredentials, saveHttpCredentials, type HttpCredentials } from './http-credentials';
import { McpHttpSessions } from './http';
import { readListenerSetting } from './listener-setting';
import type { McpBinding, McpDeps } from './server';

/** A loopback server a door runs for MCP at /mcp (the desktop app's, a stdio server's that owns the folder). */
export interface McpListener {
  port: number;
  url: string;
  /** MCP calls being answered right now (a handover waits for them). */
  busy(): number;
  close(): Promise<void>;
}

export interface McpListenerOptions {
  sessions: McpHttpSessions;
  token: string;
  port?: number;
  /** Present on a stdio server that owns the folder: lets a starting Hearth take it over. */
  onHandover?: () => Promise<void>;
}

/** How a door starts its listener (the transport is the door's: src/mcp/listener.ts). */
export type StartMcpListener = (options: McpListenerOptions) => Promise<McpListener>;

/** Who serves the endpoint: the browser host, the desktop app, or a stdio server with no app running. */
export type EndpointKind = Endpoint['kind'];

export interface McpDoors {
  /** A new set of Streamable HTTP sessions on this core, for a door's /mcp route. */
  sessions(): McpHttpSessions;
  /** One MCP server on this core for one binding, for an in-process transport (loaded when first asked for: docs/startup.md). */
  server(binding: McpBinding): Promise<Server>;
  /** The command other AI tools run to reach this install over stdio (Settings → Connections). */
  setLauncher(launcher: McpLauncher): void;
  /**
   * Points MCP stdio servers (the endpoint file) and Settings → Connections at
   * an always-on listener this door serves; returns how to withdraw the file.
   */
  announce(at: { port: number; token: string; url: string; kind: EndpointKind }): () => void;
  /**
   * Starts a listener with a fresh token and announces it; `withdraw` removes
   * the endpoint file (the listener closes separately, so it can still answer a handover).
   */
  listen(start: StartMcpListener, kind: EndpointKind, onHandover?: () => Promise<void>): Promise<{ listener: McpListener; withdraw: () => void }>;
  /** The desktop app's listener, switched in Settings → Connections; its start() registers it and restores the last choice. */
  switchable(start: StartMcpListener): SwitchableMcpListener;
}

/** The whole context: the doors also reach the data folder, the secrets and the switch's setting. */
export interface McpDoorDeps extends McpDeps {
  ctx: CoreContext;
}

export function mcpDoors(deps: McpDoorDeps): McpDoors {
  const { ctx } = deps;
  const folder = (): string => {
    if (!ctx.dataDir) throw new Error('An in-memory Hearth has no data folder to announce MCP in.');
    return ctx.dataDir;
  };
  const doors: McpDoors = {
    sessions: () => new McpHttpSessions(deps),
    server: async (binding) => (await import('./server')).createMcpServer(deps, binding),
    setLauncher(launcher) {
      ctx.mcpDoor.launcher = launcher;
    },
    announce({ port, token, url, kind }) {
      const withdraw = writeEndpoint(folder(), { port, token, kind });
      ctx.mcpDoor.http = { url, listening: true, switchable: false, enabled: true };
      return withdraw;
    },
    async listen(start, kind, onHandover) {
      const token = newToken();
      const listener = await start({ sessions: doors.sessions(), token, ...(onHandover ? { onHandover } : {}) });
      try {
        return { listener, withdraw: doors.announce({ port: listener.port, token, url: listener.url, kind }) };
      } catch (e) {
        await listener.close();
        throw e;
      }
    },
    switchable: (start) => new SwitchableMcpListener(deps, folder(), start),
  };
  return doors;
}

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
    private readonly deps: McpDoorDeps,
    private readonly dataDir: string,
    private readonly startListener: StartMcpListener,
  ) {}

  /** Registers the switch with the core and restores the user's last choice. */
  async start(): Promise<void> {
    const { ctx } = this.deps;
    ctx.mcpDoor.onSwitch((enabled) => this.set(enabled));
    ctx.mcpDoor.onRotate(() => this.rotate());
    ctx.mcpDoor.http = this.state();
    if (await readListenerSetting(ctx.db)) await this.set(true);
  }

  async set(enabled: boolean): Promise<McpHttpState> {
    const { ctx } = this.deps;
    if (enabled && !this.listener) {
      const creds = (this.creds ??= await loadHttpCredentials(ctx.secrets));
      const sessions = new McpHttpSessions(this.deps);
      // The port of the last launch, so a configured HTTP client finds it again; any free one if it is taken now.
      this.listener = await this.startListener({ sessions, token: creds.token, port: creds.port }).catch((e: NodeJS.ErrnoException) => {
        if (creds.port === 0 || e.code !== 'EADDRINUSE') throw e;
        return this.startListener({ sessions, token: creds.token });
      });
      if (this.listener.port !== creds.port) {
        this.creds = { ...creds, port: this.listener.port };
        await saveHttpCredentials(ctx.secrets, this.creds);
      }
      this.removeEndpoint = writeEndpoint(this.dataDir, { port: this.listener.port, token: creds.token, kind: 'desktop' });
    } else if (!enabled && this.listener) {
      await this.stop();
    }
    const state = this.state();
    ctx.mcpDoor.http = state;
    return state;
  }

  /** A new token: the old one stops working at once (a listening listener restarts on the same port). */
  private async rotate(): Promise<McpHttpState> {
    const { ctx } = this.deps;
    const creds = this.creds ?? (await loadHttpCredentials(ctx.secrets));
    this.creds = { ...creds, token: newToken() };
    await saveHttpCredentials(ctx.secrets, this.creds);
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
