// Live updates between two Hearths on one PostgreSQL server (docs/server-mode.md,
// "Live updates"): two real cores, each with its own data folder, on one
// database of the server the test run names (HEARTH_TEST_DATABASE_URL;
// `npm run test:servers -- --only postgres src/core/live/live.test.ts`).
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventName, Events } from '../../shared/api';
import type { EventMeta } from '../events';
import { makeTestCore, type TestCore } from '../testing/core';
import { noServerReason, testBackend } from '../testing/server';
import { LIVE_CHANNEL } from './payload';
import { LIVE_APPLICATION_NAME, liveDownNotice } from './relay';

// pglite-socket serves one session to every connection (testing/server.ts): two Hearths need a real server.
const skipReason = testBackend() === 'server' ? null : (noServerReason() ?? 'pglite-socket cannot hold two Hearths on one database');
if (skipReason) console.log(`live.test.ts: live-update tests skip: ${skipReason}`);

interface Seen {
  name: EventName;
  payload: Events[EventName];
  meta: EventMeta;
}

function record(core: TestCore): Seen[] {
  const seen: Seen[] = [];
  core.events.subscribe((name, payload, meta) => seen.push({ name, payload, meta }));
  return seen;
}

/** Waits for a condition, generously: CI's two cores are slow, and a notification crosses two processes' worth of work. */
async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const memoryEvents = (seen: Seen[], id: string) =>
  seen.filter((s) => s.name === 'memories.changed' && (s.payload as Events['memories.changed']).ids.includes(id));

describe.skipIf(skipReason !== null)('live updates between two Hearths on one server', () => {
  let a: TestCore | null = null;
  let b: TestCore | null = null;
  let raw: pg.Client | null = null;
  afterEach(async () => {
    await raw?.end().catch(() => undefined);
    await b?.dispose();
    // The first core owns (and drops) the database.
    await a?.dispose();
    a = b = raw = null;
    vi.restoreAllMocks();
  });

  async function twoHearths() {
    a = await makeTestCore({ live: { retryMs: 200 } });
    b = await makeTestCore({ databaseUrl: a.databaseUrl!, live: { retryMs: 200 } });
    raw = new pg.Client({ connectionString: a.databaseUrl! });
    await raw.connect();
    return { a, b, raw };
  }

  it('a memory and a persona added on one appear as events on the other, carrying ids but never the text; no event is doubled', async () => {
    const { a, b, raw } = await twoHearths();
    const onA = record(a);
    const onB = record(b);
    const payloads: string[] = [];
    raw.on('notification', (m) => payloads.push(m.payload ?? ''));
    await raw.query(`LISTEN ${LIVE_CHANNEL}`);

    const memory = await a.call('memories.write', { persona: 'main', content: 'The boiler code is 4471, kept secret' });
    await until('the memory event on B', () => memoryEvents(onB, memory.id).length > 0);
    const arrived = memoryEvents(onB, memory.id)[0]!;
    expect(arrived.payload).toEqual({ persona: 'main', ids: [memory.id], reason: 'write' });
    expect(arrived.meta.remote).toBe(true);
    // B reads the memory itself: the event names it, the database has it.
    expect((await b.call('memories.get', { id: memory.id })).content).toBe(memory.content);

    const persona = await a.call('personas.create', { name: 'Kitchen' });
    await until('the persona event on B', () => onB.some((s) => s.name === 'personas.changed' && (s.payload as Events['personas.changed']).persona === persona.id));
    expect((await b.call('personas.list', {})).map((p) => p.id)).toContain(persona.id);

    // A hears its own notifications too: a change from B, sent after A's were delivered, arrives after them.
    const fromB = await b.call('memories.write', { persona: 'main', content: 'written on B' });
    await until('B\'s memory on A', () => memoryEvents(onA, fromB.id).length > 0);
    expect(memoryEvents(onA, memory.id)).toHaveLength(1);
    expect(memoryEvents(onA, memory.id)[0]!.meta.remote).toBe(false);
    expect(memoryEvents(onB, fromB.id)).toHaveLength(1);
    expect(memoryEvents(onB, memory.id)).toHaveLength(1);

    await until('the raw listener to hear both', () => payloads.some((p) => p.includes(fromB.id)));
    expect(payloads.length).toBeGreaterThan(0);
    for (const p of payloads) {
      expect(Buffer.byteLength(p)).toBeLessThan(8000);
      expect(p).not.toContain('4471');
      expect(p).not.toContain('written on B');
    }
  }, 180_000);

  it('a notification on the channel that is not a Hearth change is ignored with a log line, and changes still arrive after it', async () => {
    const { a, b, raw } = await twoHearths();
    const onB = record(b);
    const warn = vi.spyOn(console, 'warn');
    const before = onB.length;
    const forged = JSON.stringify({
      v: 1,
      origin: '00000000-0000-4000-8000-000000000000',
      events: [{ name: 'memories.changed', persona: 'main', ids: ['x'], reason: 'write', content: 'smuggled text' }],
    });
    for (const text of ['not json at all', '{"v":2}', forged, JSON.stringify({ v: 1, origin: '00000000-0000-4000-8000-000000000000', events: [{ name: 'app.notices' }] })]) {
      await raw.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, text]);
    }
    await until('four log lines on each Hearth', () => warn.mock.calls.filter((c) => String(c[0]).includes('not a Hearth change')).length >= 8);
    expect(onB.length).toBe(before);

    const memory = await a.call('memories.write', { persona: 'main', content: 'after the garbage' });
    await until('the memory event on B', () => memoryEvents(onB, memory.id).length > 0);
    expect(onB.slice(before).map((s) => s.name)).toEqual(['memories.changed']);
  }, 180_000);

  it('when the server ends the listening connection, the other device says so, reconnects, catches up and hears changes again', async () => {
    const { a, b, raw } = await twoHearths();
    const onB = record(b);
    const noticesSeen: string[][] = [];
    b.events.subscribe((name) => {
      if (name === 'app.notices') noticesSeen.push([...b!.ctx.notices]);
    });
    const { rows } = await raw.query(
      'SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [LIVE_APPLICATION_NAME],
    );
    // Both Hearths were listening.
    expect(rows).toHaveLength(2);
    const notice = liveDownNotice(b.ctx.db.server!);
    await until('the notice while the connection is down', () => noticesSeen.some((n) => n.includes(notice)));
    await until('the reconnection', async () => {
      const info = await b!.call('app.info', {});
      return !info.notices.includes(notice);
    });
    // After the gap, B's pages reload what they show: each persona's views.
    await until('the catch-up', () => onB.some((s) => s.name === 'personas.changed' && s.meta.remote && (s.payload as Events['personas.changed']).persona === 'main'));

    const memory = await a.call('memories.write', { persona: 'main', content: 'after the reconnection' });
    await until('the memory event on B', () => memoryEvents(onB, memory.id).length > 0);
    expect(memoryEvents(onB, memory.id)).toHaveLength(1);
  }, 180_000);
});
