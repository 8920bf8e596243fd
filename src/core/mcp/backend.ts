import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { lockHolderInfo } from '../db/lock';
import { liveEndpoint, mcpUrl, type Endpoint } from './endpoint';
import type { McpListener } from './doors';
import type { McpBinding } from './server';
import { AppError, isAppError } from '../../shared/errors';
import { CONNECTIONS_OFF } from './connections-off';
import { isSessionLost, isUnreachable } from './forward-errors';
import type { BackendPort } from './proxy';

/** A stdio server that opened the data folder itself because no Hearth was running (src/core/app/stdio-owner.ts). */
export interface Ownership {
  listener: McpListener;
  /** This process's own MCP client of its core (what the stdio host's calls go through). */
  client: Client;
  /**
   * Lets go of the folder (sessions, the endpoint file, the database and its
   * lock). The listener stays up only during a handover, to answer it.
   */
  release(options?: { keepListener?: boolean }): Promise<void>;
}

/**
 * Opens the folder for this stdio server (fails with `locked` when someone else
 * has it); `onHandover` is called when a starting Hearth asks for it.
 */
export type TakeOwnership = (clientInfo: Implementation, onHandover: () => Promise<void>, onResourceUpdated: (uri: string) => void) => Promise<Ownership>;

export interface BackendOptions {
  dataDir: string;
  binding: McpBinding;
  /** How this server opens the folder itself when no Hearth runs. */
  takeOwnership: TakeOwnership;
  /** The stdio host's own name and version (from its initialize), passed on to the owner. */
  clientInfo(): Implementation;
  /** How long to wait for a Hearth that holds the folder but has not (yet) written its endpoint. */
  waitMs?: number;
  /** After handing the folder over, how long to leave the lock to the Hearth that asked for it. */
  holdoffMs?: number;
  /** After a handover, how long the Hearth that took the folder may take to write its endpoint. */
  startingMs?: number;
  log(message: string): void;
  /** A resource the host subscribed to changed (only while this server owns the folder: HTTP owners keep no subscriptions). */
  onResourceUpdated?(uri: string): void;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a Hearth that always serves MCP may take to open the folder before it writes its endpoint (a migration, a loaded machine). */
const OPENING_MS = 60_000;

/**
 * Where this stdio server's calls go. One database owner per folder: forward
 * to a running Hearth when there is one (its endpoint file), else own the
 * folder; find the owner again when it goes away or asks for the folder.
 */
export class Backend implements BackendPort {
  private current: Promise<Client> | null = null;
  private owner: Ownership | null = null;
  /** Taking the folder right now (its listener may already be asked for a handover before this resolves). */
  private owning: Promise<Ownership> | null = null;
  private inflight = new Set<Promise<unknown>>();
  private lockFreeAt = 0;
  private closed = false;

  constructor(private readonly opts: BackendOptions) {}

  /** Owning the folder (rather than forwarding) right now: for tests and the log. */
  get owns(): boolean {
    return this.owner !== null;
  }

  /** Starts finding the owner before the first call needs it. */
  warmUp(): void {
    this.client().catch((e: unknown) => this.opts.log(`Hearth MCP: ${(e as Error).message}`));
  }

  async run<T>(op: (client: Client) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.client();
      const p = op(client);
      this.inflight.add(p);
      try {
        return await p;
      } catch (e) {
        if (attempt >= 2 || !(isUnreachable(e) || isSessionLost(e))) throw e;
        this.opts.log(`Hearth MCP: lost the connection to the data folder's owner (${(e as Error).message}); finding it again.`);
        await this.drop(client);
      } finally {
        this.inflight.delete(p);
      }
    }
  }

  private client(): Promise<Client> {
    if (!this.current) {
      const c = this.connect();
      this.current = c;
      c.catch(() => {
        if (this.current === c) this.current = null;
      });
    }
    return this.current;
  }

  private async drop(client: Client): Promise<void> {
    const current = this.current;
    if (current && (await current.catch(() => null)) === client) this.current = null;
    await client.close().catch(() => undefined);
  }

  /**
   * Finds the folder's owner. Right after a handover the lock is left to the
   * Hearth app that asked for it — but only while that app is on its way: once
   * it serves (or its lock is gone or dead) the hold-off ends, so a stopped or
   * killed app costs no wait. A live holder that writes no endpoint has its
   * connections switched off: that answer comes within `waitMs`.
   */
  private async connect(): Promise<Client> {
    const startedAt = Date.now();
    let appSeenAt = 0;
    for (;;) {
      if (this.closed) throw new AppError('cancelled', 'The MCP server is shutting down.');
      const endpoint = liveEndpoint(this.opts.dataDir);
      if (endpoint) {
        try {
          const client = await this.forwardTo(endpoint);
          this.lockFreeAt = 0;
          return client;
        } catch (e) {
          // Unreachable: the owner is going away, or crashed and its process id now belongs to another program.
          if (!isUnreachable(e)) throw e;
        }
      }
      const info = lockHolderInfo(this.opts.dataDir);
      const holder = info.state;
      const now = Date.now();
      if (now < this.lockFreeAt) {
        // Holding off for the app that took the folder: it has the lock (starting), has not taken it yet, or is gone.
        if (holder === 'alive') appSeenAt ||= now;
        else if (holder === 'dead' || appSeenAt) this.lockFreeAt = 0;
      }
      if (Date.now() >= this.lockFreeAt) {
        try {
          return await this.own();
        } catch (e) {
          if (!(isAppError(e) && e.code === 'locked')) throw e;
        }
      }
      // A browser host or another stdio server always serves MCP once open: a moment ago it took the lock and is still opening.
      const serves = info.state === 'alive' && (info.role === 'host' || info.role === 'mcp-stdio');
      const patience = appSeenAt
        ? (this.opts.startingMs ?? 5_000)
        : this.lockFreeAt > now
          ? Infinity
          : serves
            ? (this.opts.startingMs ?? 5_000) + OPENING_MS
            : (this.opts.waitMs ?? 800);
      const since = appSeenAt || startedAt;
      if (now - since > patience) throw new AppError('locked', CONNECTIONS_OFF);
      await sleep(100);
    }
  }

  private async forwardTo(e: Endpoint): Promise<Client> {
    const url = new URL(mcpUrl(e));
    url.searchParams.set('persona', this.opts.binding.persona);
    if (this.opts.binding.readOnly) url.searchParams.set('readOnly', '1');
    const client = new Client(this.opts.clientInfo());
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${e.token}` } } }));
    this.opts.log(`Hearth MCP: forwarding to the Hearth that owns ${this.opts.dataDir} (${e.kind}, process ${e.pid}).`);
    return client;
  }

  private async own(): Promise<Client> {
    const owning = this.opts.takeOwnership(this.opts.clientInfo(), () => this.handOver(), (uri) => this.opts.onResourceUpdated?.(uri));
    this.owning = owning;
    let owner: Ownership;
    try {
      owner = await owning;
    } finally {
      this.owning = null;
    }
    if (this.closed) {
      await owner.release();
      throw new AppError('cancelled', 'The MCP server is shutting down.');
    }
    this.owner = owner;
    this.opts.log(`Hearth MCP: no Hearth app is running, so this server opened ${this.opts.dataDir} itself (persona ${this.opts.binding.persona}).`);
    return owner.client;
  }

  /** A Hearth app is starting on this folder: finish the calls under way, let go, then forward to it. */
  private async handOver(): Promise<void> {
    // Asked while ownership is still being set up (the listener and endpoint are up a moment before it is recorded): finish, then let go.
    // own() resumes before this does (it awaited the same promise first), so the owner is set by then.
    if (!this.owner && this.owning) await this.owning.catch(() => null);
    const owner = this.owner;
    if (!owner) return;
    this.owner = null;
    this.lockFreeAt = Date.now() + (this.opts.holdoffMs ?? 30_000);
    let released!: () => void;
    const gone = new Promise<void>((r) => (released = r));
    const next = gone.then(() => this.connect());
    this.current = next;
    next.catch(() => {
      if (this.current === next) this.current = null;
    });
    const until = Date.now() + 10_000;
    while ((this.inflight.size > 0 || owner.listener.busy() > 0) && Date.now() < until) await sleep(20);
    await owner.release({ keepListener: true });
    this.opts.log('Hearth MCP: a Hearth app asked for the data folder; handed it over.');
    released();
  }

  async close(): Promise<void> {
    this.closed = true;
    const owner = this.owner;
    this.owner = null;
    if (owner) await owner.release();
    else await (await this.current?.catch(() => null))?.close();
  }
}
