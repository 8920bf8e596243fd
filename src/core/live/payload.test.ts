// What crosses the notification channel (docs/server-mode.md, "Live updates"):
// no server needed, the packing and the checks are plain code.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_IDS, pack, type RelayedEvent, toRelayed, unpack } from './payload';

const origin = randomUUID();

describe('live-update notifications', () => {
  it('a burst (a big import, a backlog of embeddings) fits in notifications the server accepts, and reads back whole', () => {
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    const queued: RelayedEvent[] = [];
    // An import names its first 1000 memories; every embedded row changes its job.
    queued.push(toRelayed('memories.changed', { persona: 'main', ids, reason: 'write' })!);
    for (let j = 1; j <= 3000; j++) queued.push({ name: 'jobs.changed', jobs: [String(j)] });
    for (let j = 1; j <= 3000; j++) queued.push({ name: 'jobs.changed', jobs: [String(j)] });
    for (let i = 0; i < 50; i++) queued.push({ name: 'personas.changed', persona: 'main' });
    const payloads = pack(origin, queued);
    const back = payloads.map((p) => {
      expect(Buffer.byteLength(p)).toBeLessThan(8000);
      const r = unpack(p);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    });
    const events = back.flatMap((n) => n.events);
    // Each job once, the repeated persona change once, the memories cut to what the page needs (it reloads past 20).
    const jobs = events.flatMap((e) => (e.name === 'jobs.changed' ? e.jobs : []));
    expect(jobs).toHaveLength(3000);
    expect(new Set(jobs).size).toBe(3000);
    expect(events.filter((e) => e.name === 'personas.changed')).toHaveLength(1);
    const memories = events.find((e) => e.name === 'memories.changed');
    expect(memories).toMatchObject({ persona: 'main', reason: 'write' });
    expect(memories && 'ids' in memories ? memories.ids : []).toEqual(ids.slice(0, MAX_IDS));
    expect(back.every((n) => n.origin === origin)).toBe(true);
  });

  it('carries ids, never a message\'s text; events that stay on this device are not sent', () => {
    const message = { id: '42', role: 'user' as const, content: 'my bank PIN is 0000', toolCalls: null, toolCallId: null, memoryIds: null, folded: false, createdAt: new Date().toISOString() };
    const relayed = toRelayed('chat.message', { persona: 'main', conversation: randomUUID(), message });
    expect(JSON.stringify(relayed)).not.toContain('0000');
    expect(relayed).toMatchObject({ name: 'chat.message', message: '42' });
    expect(toRelayed('chat.token', { persona: 'main', conversation: 'c', messageId: '1', delta: 'secret' })).toBeNull();
    expect(toRelayed('app.notices', {})).toBeNull();
    expect(toRelayed('personas.deleting', { persona: 'main', stage: 'backup' })).toBeNull();
  });

  it('refuses what is not a Hearth change: bad JSON, other versions, unknown events, extra fields, bad ids', () => {
    const bad = [
      'not json',
      '{"v":2,"origin":"' + origin + '","events":[{"name":"settings.changed"}]}',
      JSON.stringify({ v: 1, origin, events: [{ name: 'app.notices' }] }),
      JSON.stringify({ v: 1, origin, events: [{ name: 'memories.changed', persona: 'main', ids: [], reason: 'write', content: 'text' }] }),
      JSON.stringify({ v: 1, origin, events: [{ name: 'jobs.changed', jobs: ['1; DROP TABLE jobs'] }] }),
      JSON.stringify({ v: 1, origin, events: [{ name: 'personas.changed', persona: '../Etc' }] }),
      JSON.stringify({ v: 1, origin: 'me', events: [{ name: 'settings.changed' }] }),
    ];
    for (const text of bad) expect(unpack(text).ok, text).toBe(false);
    expect(unpack(JSON.stringify({ v: 1, origin, events: [{ name: 'settings.changed' }] })).ok).toBe(true);
  });
});
