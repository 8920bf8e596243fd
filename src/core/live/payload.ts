// What one Hearth tells the others on the shared server's notification channel
// (docs/server-mode.md, "Live updates"): which kind of thing changed, for which
// persona, and ids. Never memory text, message text or job arguments: a
// notification is visible to every session that LISTENs, and its size is
// capped by the server (8000 bytes). Another process is a boundary, so what
// arrives is validated before anything acts on it.
import { z } from 'zod';
import type { EventName, Events } from '../../shared/api';
import { personaId } from '../schemas';

/** The one channel every Hearth on a database publishes and listens on. */
export const LIVE_CHANNEL = 'hearth_live';

/** Postgres refuses a payload of 8000 bytes or more; a batch is cut well below that. */
export const MAX_PAYLOAD_BYTES = 7000;

/**
 * A burst (an import, a review) names at most this many memories; the page reloads its list for
 * more than 20 (src/renderer/features/memories/store.ts) and reads each row itself for fewer.
 */
export const MAX_IDS = 100;

const id = z.string().min(1).max(64);
const ids = z.array(id).max(MAX_IDS);

/** One relayed change. Jobs and chat messages name ids only: the receiving Hearth reads them from the database. */
export const relayedEvent = z.discriminatedUnion('name', [
  z.object({ name: z.literal('personas.changed'), persona: personaId.optional() }).strict(),
  z
    .object({
      name: z.literal('memories.changed'),
      persona: personaId,
      ids,
      reason: z.enum(['write', 'update', 'delete', 'embedded', 'restore']),
    })
    .strict(),
  z.object({ name: z.literal('userModel.changed'), persona: personaId }).strict(),
  z.object({ name: z.literal('knowledge.changed'), persona: personaId, source: z.string().max(1000) }).strict(),
  z.object({ name: z.literal('trash.changed'), persona: personaId }).strict(),
  z.object({ name: z.literal('jobs.changed'), jobs: z.array(z.string().regex(/^\d{1,19}$/)).min(1).max(MAX_IDS) }).strict(),
  z.object({ name: z.literal('chat.message'), persona: personaId, conversation: id, message: z.string().regex(/^\d{1,19}$/) }).strict(),
  z.object({ name: z.literal('settings.changed') }).strict(),
  z.object({ name: z.literal('mcp.changed'), client: z.string().min(1).max(64) }).strict(),
]);
export type RelayedEvent = z.infer<typeof relayedEvent>;

/** One notification: who sent it (to ignore one's own) and the changes, in order. */
export const notification = z
  .object({
    v: z.literal(1),
    origin: z.string().regex(/^[0-9a-f-]{36}$/),
    events: z.array(relayedEvent).min(1).max(200),
  })
  .strict();
export type LiveNotification = z.infer<typeof notification>;

/**
 * The part of a local event other devices' pages need, or null for events that stay on this
 * device: streamed tokens and turn state (a turn runs on one device), transfer and deletion
 * progress, start-up notices, ingest progress (the job's own row carries it).
 */
export function toRelayed<E extends EventName>(name: E, payload: Events[E]): RelayedEvent | null {
  const p = payload as Events[EventName];
  switch (name) {
    case 'personas.changed': {
      const e = p as Events['personas.changed'];
      return { name, ...(e.persona ? { persona: e.persona } : {}) };
    }
    case 'memories.changed': {
      const e = p as Events['memories.changed'];
      return { name, persona: e.persona, ids: e.ids.slice(0, MAX_IDS), reason: e.reason };
    }
    case 'userModel.changed':
      return { name, persona: (p as Events['userModel.changed']).persona };
    case 'knowledge.changed': {
      const e = p as Events['knowledge.changed'];
      return { name, persona: e.persona, source: e.source };
    }
    case 'trash.changed':
      return { name, persona: (p as Events['trash.changed']).persona };
    case 'jobs.changed':
      return { name, jobs: [(p as Events['jobs.changed']).job.id] };
    case 'chat.message': {
      const e = p as Events['chat.message'];
      return { name, persona: e.persona, conversation: e.conversation, message: e.message.id };
    }
    case 'settings.changed':
      return { name };
    case 'mcp.changed':
      return { name, client: (p as Events['mcp.changed']).client };
    default:
      return null;
  }
}

/**
 * Packs queued changes into as few notifications as fit the size cap. Repeats are dropped and
 * the job changes of a batch merged into one list: a burst of embeddings becomes one notice.
 */
export function pack(origin: string, queued: RelayedEvent[]): string[] {
  const seen = new Set<string>();
  const events: RelayedEvent[] = [];
  const jobs = new Set<string>();
  for (const e of queued) {
    if (e.name === 'jobs.changed') {
      e.jobs.forEach((j) => jobs.add(j));
      continue;
    }
    const key = JSON.stringify(e);
    if (seen.has(key)) continue;
    seen.add(key);
    events.push(e);
  }
  const jobList = [...jobs];
  for (let i = 0; i < jobList.length; i += MAX_IDS) events.push({ name: 'jobs.changed', jobs: jobList.slice(i, i + MAX_IDS) });

  const out: string[] = [];
  const encode = (list: RelayedEvent[]) => JSON.stringify({ v: 1, origin, events: list } satisfies LiveNotification);
  const envelope = Buffer.byteLength(encode([]));
  let batch: RelayedEvent[] = [];
  let bytes = envelope;
  for (const e of events) {
    const size = Buffer.byteLength(JSON.stringify(e)) + 1;
    if (batch.length && (bytes + size > MAX_PAYLOAD_BYTES || batch.length >= 200)) {
      out.push(encode(batch));
      batch = [];
      bytes = envelope;
    }
    batch.push(e);
    bytes += size;
  }
  if (batch.length) out.push(encode(batch));
  return out;
}

/** A notification's text read back, or why it is not one of ours. */
export function unpack(text: string): { ok: true; value: LiveNotification } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  const r = notification.safeParse(json);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: z.prettifyError(r.error).slice(0, 300) };
}
