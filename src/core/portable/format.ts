// The .hearth file: gzip of JSON Lines, a header line then one typed record a
// line (docs/export.md). Every record is validated with these schemas on the
// way in, so a damaged or foreign file is refused at its first bad line.
import { z } from 'zod';
import { avatar } from '../schemas';

export const FORMAT = 'hearth-persona';
/** Bumped when a record changes meaning; a reader refuses versions newer than its own. */
export const FORMAT_VERSION = 1;

/**
 * A day the calendar has, years 0001–9999: Postgres would otherwise move
 * 2025-02-30 to 2025-03-02 in some paths and refuse year 0 with its own words
 * in others; the file is refused at the line instead (docs/export.md).
 */
export function calendarDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(2000, mo, 0)).getUTCDate() - (mo === 2 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 1 : 0);
}
const clock = (s: string) => {
  const m = /T(\d{2}):(\d{2}):(\d{2})/.exec(s);
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3]) < 60;
};
const iso = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/, 'a UTC time (YYYY-MM-DDTHH:MM:SS.ffffffZ)')
  .refine((s) => calendarDay(s) && clock(s), 'a time that exists (a real calendar day, year 0001–9999)');
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day (YYYY-MM-DD)')
  .refine(calendarDay, 'a day the calendar has (year 0001–9999)');
const uuid = z.string().uuid();
/** A vector as base64 of big-endian float32 components, trailing zeros left out (the database pads to 1536). */
const vector = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64').max(8200);

export const headerSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int().min(1),
  appVersion: z.string().max(100),
  exportedAt: iso,
  embeddingModel: z.string().max(300),
});
export type Header = z.infer<typeof headerSchema>;

const persona = z.object({
  type: z.literal('persona'),
  id: z.string().max(64),
  name: z.string().min(1).max(200),
  // Files written before avatars existed have none: the name's first character is shown, as it was.
  avatar: avatar.optional(),
  createdAt: iso,
  // Privacy travels with the persona (docs/privacy.md); files written before it existed have neither.
  localOnly: z.boolean().optional(),
  mcp: z.boolean().optional(),
});

const memory = z.object({
  type: z.literal('memory'),
  id: uuid,
  category: z.string().max(10_000).nullable(),
  content: z.string().min(1).max(1_000_000),
  importance: z.number().int().min(1).max(10),
  day,
  origin: z.string().max(100),
  conversationId: uuid.nullable(),
  insertedAt: iso,
  updatedAt: iso,
  embedding: vector.nullable(),
  embeddingModel: z.string().max(300).nullable(),
  embeddingError: z.string().max(100_000).nullable(),
  /** The newer memory that replaced this one (docs/history.md), and when. */
  supersededBy: uuid.nullable().default(null),
  supersededAt: iso.nullable().default(null),
});

const actor = z.string().max(100).nullable();

/** One state a memory has been in (memory_versions): the fields after that change, who made it, when. */
const memoryVersion = z.object({
  type: z.literal('memoryVersion'),
  memoryId: uuid,
  version: z.number().int().min(1),
  change: z.enum(['create', 'update', 'restore', 'supersede', 'unsupersede', 'delete', 'undelete']),
  content: z.string().max(1_000_000),
  category: z.string().max(10_000).nullable(),
  importance: z.number().int().min(1).max(10),
  day,
  supersededBy: uuid.nullable(),
  actor,
  conversationId: uuid.nullable(),
  reason: z.string().max(100_000).nullable(),
  validFrom: iso,
  validTo: iso.nullable(),
});

const userModelVersion = z.object({
  type: z.literal('userModelVersion'),
  dimension: z.string().min(1).max(10_000),
  version: z.number().int().min(1),
  change: z.enum(['upsert', 'restore', 'delete']),
  content: z.string().max(1_000_000).nullable(),
  confidence: z.number().int().min(1).max(10).nullable(),
  actor,
  conversationId: uuid.nullable(),
  reason: z.string().max(100_000).nullable(),
  validFrom: iso,
  validTo: iso.nullable(),
});

const userModel = z.object({
  type: z.literal('userModel'),
  id: uuid,
  dimension: z.string().min(1).max(10_000),
  content: z.string().max(1_000_000),
  confidence: z.number().int().min(1).max(10),
  insertedAt: iso,
  updatedAt: iso,
});

const knowledgeSource = z.object({
  type: z.literal('knowledgeSource'),
  source: z.string().min(1).max(10_000),
  kind: z.string().max(100).nullable(),
  bytes: z.number().int().min(0).nullable(),
  pages: z.number().int().min(0).nullable(),
  ingestedAt: iso,
});

const knowledgeChunk = z.object({
  type: z.literal('knowledgeChunk'),
  id: uuid,
  source: z.string().min(1).max(10_000),
  chunkIndex: z.number().int().min(0),
  content: z.string().max(1_000_000),
  pageFrom: z.number().int().nullable(),
  pageTo: z.number().int().nullable(),
  embedding: vector.nullable(),
  embeddingModel: z.string().max(300).nullable(),
  embeddingError: z.string().max(100_000).nullable(),
  insertedAt: iso,
});

const conversation = z.object({
  type: z.literal('conversation'),
  id: uuid,
  title: z.string().max(10_000).default(''),
  summary: z.string().max(10_000_000),
  memorySnapshot: z.string().max(10_000_000).nullable(),
  userMsgsSinceNudge: z.number().int().min(0),
  createdAt: iso,
  updatedAt: iso,
});

const message = z.object({
  type: z.literal('message'),
  conversationId: uuid,
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().max(10_000_000),
  toolCalls: z.unknown().nullable(),
  toolCallId: z.string().max(1000).nullable(),
  memoryIds: z.array(z.string().max(100)).nullable(),
  folded: z.boolean(),
  createdAt: iso,
});

/** The last line: how many records of each type came before, so a cut-short file is caught. */
const end = z.object({ type: z.literal('end'), counts: z.record(z.string(), z.number().int().min(0)) });

export const recordSchema = z.discriminatedUnion('type', [
  persona,
  memory,
  memoryVersion,
  userModel,
  userModelVersion,
  knowledgeSource,
  knowledgeChunk,
  conversation,
  message,
  end,
]);
export type HearthRecord = z.infer<typeof recordSchema>;
export type RecordOf<T extends HearthRecord['type']> = Extract<HearthRecord, { type: T }>;


/** Float32 big-endian bytes (as vector_send gives them after its 4-byte header) → base64, trailing zeros dropped. */
export function vectorToBase64(send: Uint8Array): string {
  let end = send.length;
  while (end > 4 && send[end - 1] === 0 && send[end - 2] === 0 && send[end - 3] === 0 && send[end - 4] === 0) end -= 4;
  // A component of -0 has a non-zero sign byte, so only true zeros are trimmed.
  return Buffer.from(send.buffer, send.byteOffset + 4, end - 4).toString('base64');
}

/**
 * base64 of big-endian float32 → pgvector's binary input holding just those
 * components (at least one), not yet padded to the database's `dims`: the
 * insert pads it in SQL (import.ts), so a 512-d vector crosses to the database
 * as 2 kB rather than 6 kB and Postgres parses a third of the floats.
 */
export function base64ToVector(b64: string, dims: number): Uint8Array {
  const body = Buffer.from(b64, 'base64');
  if (body.length % 4 !== 0 || body.length > dims * 4) throw new Error(`a vector of ${body.length} bytes does not fit ${dims} dimensions`);
  // An all-zero vector had every component trimmed: one zero stands for it (the padding adds the rest).
  const n = Math.max(1, body.length / 4);
  const out = new Uint8Array(4 + n * 4);
  const view = new DataView(out.buffer);
  view.setInt16(0, n);
  view.setInt16(2, 0);
  out.set(body, 4);
  for (let i = 4; i < 4 + body.length; i += 4) {
    if (!Number.isFinite(view.getFloat32(i))) throw new Error('a vector component is not a finite number');
  }
  return out;
}

/**
 * Why a vector from a file cannot stand for its text, or null when it can:
 * a component that is not a finite number, every component zero (no
 * direction: cosine distance to it is undefined and recall ranked it first),
 * or more components than its model makes (`dims`: the current model's when
 * the tag is the current model, else the column's). Fewer is not a fault: the
 * file leaves out trailing zeros, so a short vector is one whose last
 * components are zero.
 */
export function vectorProblem(b64: string, dims: number): string | null {
  const body = Buffer.from(b64, 'base64');
  if (body.length % 4 !== 0) return 'its length is not a whole number of components';
  const n = body.length / 4;
  if (n > dims) return `it has ${n} components where its model makes ${dims}`;
  let nonZero = false;
  for (let i = 0; i < body.length; i += 4) {
    const x = body.readFloatBE(i);
    if (!Number.isFinite(x)) return 'a component is not a finite number';
    if (x !== 0) nonZero = true;
  }
  return nonZero ? null : 'every component is zero';
}
