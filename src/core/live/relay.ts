// Live updates between Hearths sharing one PostgreSQL server (docs/server-mode.md,
// "Live updates"). Each Hearth publishes the changes its own core makes with
// pg_notify on one channel, and LISTENs on a connection of its own; what other
// Hearths publish is validated and re-emitted on this Hearth's event bus, so
// its pages refresh as they do for local changes. PGlite has one owner, so
// nothing of this runs there.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EventName, Events } from '../../shared/api';
import type { CoreContext } from '../context';
import type { ServerDb } from '../db/server';
import type { EventMeta } from '../events';
import { dismissNotice, raiseNotice } from '../info/notices';
import { JOB_COLUMNS, type JobRow, toJob } from '../jobs/row';
import { getMessage } from '../chat/messages';
import { LIVE_CHANNEL, pack, type RelayedEvent, toRelayed, unpack } from './payload';

export interface LiveOptions {
  /** How long changes are gathered before they are sent (a burst becomes one notification). */
  flushMs: number;
  /** The first wait before reconnecting a lost listening connection; doubled each failure up to maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveOptions = { flushMs: 25, retryMs: 500, maxRetryMs: 15_000 };

/** How the listening connection is named on the server (pg_stat_activity.application_name). */
export const LIVE_APPLICATION_NAME = 'hearth live updates';

const REMOTE: EventMeta = Object.freeze({ remote: true });

/** Shows while the listening connection is down (app.info's notices), removed when it is back. */
export function liveDownNotice(server: string): string {
  return (
    `Live updates from other devices are paused: the connection to the PostgreSQL server ${server} was lost. ` +
    'Hearth keeps reconnecting; until then, changes made on other devices show when you reopen a view.'
  );
}

export class LiveUpdates {
  /** This Hearth's own id on the channel: its own notifications come back to it and are skipped. */
  readonly origin = randomUUID();
  private queued: RelayedEvent[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private client: pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs: number;
  private down = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  /** Received notifications are handled one after another, so changes are re-emitted in the order sent. */
  private received: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: CoreContext,
    private readonly server: ServerDb,
    private readonly o: LiveOptions = DEFAULT_LIVE_OPTIONS,
  ) {
    this.retryMs = o.retryMs;
  }

  /** Starts publishing, and listening (a first connection that fails is retried, as a lost one is). */
  async start(): Promise<void> {
    this.unsubscribe = this.ctx.events.subscribe((name, payload, meta) => {
      if (meta.remote || this.stopped) return;
      const relayed = toRelayed(name, payload);
      if (!relayed) return;
      // An event emitted inside a transaction is sent once it commits, and never if it rolls back.
      this.server.afterCommit(() => {
        if (this.stopped) return;
        this.queued.push(relayed);
        // Outside any request's transaction: notify() uses the pool itself (ServerDb.notify).
        this.flushTimer ??= setTimeout(() => this.flush(), this.o.flushMs);
      });
    });
    await this.listen(false);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    // What this Hearth changed last (a job put back at close) still reaches the others.
    this.flush();
    await this.flushing;
    this.stopped = true;
    this.unsubscribe?.();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await this.received;
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.stopped || !this.queued.length) return;
    const payloads = pack(this.origin, this.queued.splice(0));
    this.flushing = this.flushing
      .then(() => this.server.notify(LIVE_CHANNEL, payloads))
      .catch((e: unknown) => {
        // The change itself is committed; only the other devices' prompt refresh is lost.
        console.warn(`Hearth: could not tell other devices about a change: ${e instanceof Error ? e.message : e}`);
      });
  }

  private async listen(reconnecting: boolean): Promise<void> {
    if (this.stopped) return;
    let client: pg.Client;
    try {
      client = await this.server.connectDedicated(LIVE_APPLICATION_NAME);
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (e) {
      this.lost(null, e);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = this.o.retryMs;
    client.on('notification', (msg) => {
      if (msg.channel !== LIVE_CHANNEL) return;
      const text = msg.payload ?? '';
      this.received = this.received.then(() => this.receive(text));
    });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, null));
    if (this.down) {
      this.down = false;
      dismissNotice(this.ctx, liveDownNotice(this.server.server));
      console.warn(`Hearth: live updates from ${this.server.server} resumed.`);
    }
    // Whatever others changed while this one was not listening: the pages reload what they show.
    if (reconnecting) this.received = this.received.then(() => this.catchUp());
  }

  /** The listening connection ended (or could not be made): say so, and try again later. */
  private lost(client: pg.Client | null, e: unknown): void {
    if (this.stopped || (client && this.client !== client)) return;
    this.client = null;
    client?.removeAllListeners('notification');
    // A client that failed keeps an 'error' listener: a late socket error must not become an uncaught one.
    client?.end().catch(() => undefined);
    if (!this.down) {
      this.down = true;
      console.warn(`Hearth: live updates from ${this.server.server} stopped${e instanceof Error ? ` (${e.message})` : ''}; reconnecting.`);
      raiseNotice(this.ctx, liveDownNotice(this.server.server));
    }
    if (this.retryTimer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.o.maxRetryMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.listen(true);
    }, wait);
    this.retryTimer.unref();
  }

  private async receive(text: string): Promise<void> {
    if (this.stopped) return;
    const r = unpack(text);
    if (!r.ok) {
      // Anyone who can connect may NOTIFY this channel: what is not a Hearth change is dropped, said once per message.
      console.warn(`Hearth: ignored a notification on ${LIVE_CHANNEL} that is not a Hearth change (${r.error}).`);
      return;
    }
    if (r.value.origin === this.origin) return;
    for (const e of r.value.events) {
      try {
        await this.replay(e);
      } catch (err) {
        if (!this.stopped) console.warn(`Hearth: could not read a change from another device (${e.name}): ${err instanceof Error ? err.message : err}`);
      }
    }
  }

  private emit<E extends EventName>(name: E, payload: Events[E]): void {
    this.ctx.events.emit(name, payload, REMOTE);
  }

  /** One change from another Hearth, on this Hearth's bus; jobs and messages are read here (the notice names ids only). */
  private async replay(e: RelayedEvent): Promise<void> {
    switch (e.name) {
      case 'jobs.changed': {
        const { rows } = await this.ctx.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ANY($1::bigint[]) ORDER BY id`, [e.jobs]);
        for (const row of rows) this.emit('jobs.changed', { job: toJob(row) });
        return;
      }
      case 'chat.message': {
        const message = await getMessage(this.ctx.db, e.message);
        if (message) this.emit('chat.message', { persona: e.persona, conversation: e.conversation, message });
        return;
      }
      case 'personas.changed':
        this.emit(e.name, e.persona ? { persona: e.persona } : {});
        return;
      case 'memories.changed':
        this.emit(e.name, { persona: e.persona, ids: e.ids, reason: e.reason });
        return;
      case 'userModel.changed':
        this.emit(e.name, { persona: e.persona });
        return;
      case 'knowledge.changed':
        this.emit(e.name, { persona: e.persona, source: e.source });
        return;
      case 'trash.changed':
        this.emit(e.name, { persona: e.persona });
        return;
      case 'settings.changed':
        this.emit(e.name, {});
        return;
      case 'mcp.changed':
        this.emit(e.name, { client: e.client });
        return;
    }
  }

  /** After a gap: every persona's views and the settings reload, as if each had changed. */
  private async catchUp(): Promise<void> {
    if (this.stopped) return;
    try {
      const { rows } = await this.ctx.db.query<{ id: string }>('SELECT id FROM personas ORDER BY id');
      for (const { id } of rows) this.emit('personas.changed', { persona: id });
      this.emit('settings.changed', {});
    } catch (e) {
      console.warn(`Hearth: could not catch up with other devices' changes: ${e instanceof Error ? e.message : e}`);
    }
  }
}
