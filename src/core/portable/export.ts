// personas.export: streams one persona out as a .hearth file (docs/export.md).
// Rows are read in pages by key, never the whole persona at once, and go
// through gzip to disk with backpressure, so memory stays flat at any size.
// Pages are sized by time (pace.ts) and read outside any transaction, so
// other calls are answered in between; the file still shows the persona as it
// was when the export started (marks below), never half of a later change.
// Each table is read by its own store (<domain>/transfer.ts).
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { countMessages, MESSAGE_MARK_SQL, messagePages } from '../chat/transfer';
import type { CoreContext } from '../context';
import { countConversations, exportConversations } from '../conversations/transfer';
import type { Queryable } from '../db/client';
import type { PageReader } from '../db/bulk-rows';
import {
  countVersions, MEMORY_VERSION_MARK_SQL, memoryVersionPages, USER_MODEL_VERSION_MARK_SQL, userModelVersionPages,
} from '../history/transfer';
import { APP_VERSION } from '../info/handlers';
import { checkSourceUnchanged, chunkPages, countKnowledge, sourcePages } from '../knowledge/transfer';
import { countMemories, MEMORY_MARK_SQL, memoryPages } from '../memories/transfer';
import { requirePersona } from '../personas/store';
import { exportPersonaRow } from '../personas/transfer';
import { countUserModel, userModelPages } from '../user-model/transfer';
import { FORMAT, FORMAT_VERSION, type HearthRecord, type Header } from './format';
import { DEFAULT_PACE, EventLoopTurns, Pacer } from '../db/pace';

/** Export files the doors did not collect (a download never fetched) are removed after this long. */
const STALE_MS = 60 * 60 * 1000;

export function exportsDir(ctx: Pick<CoreContext, 'dataDir'>): string {
  return ctx.dataDir ? join(ctx.dataDir, 'exports') : join(tmpdir(), 'hearth-exports');
}

/** A file name from the persona's display name: letters and digits kept, any script. */
export function exportFileName(name: string): string {
  const base = name.normalize('NFC').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
  return `${base || 'persona'}.hearth`;
}

type Progress = (done: number, total: number) => void;

/**
 * Reads by key, a page at a time, each page sized to take ~40 ms (pace.ts).
 * `start`: the first page's rows, small where a row is costly (a document
 * chunk reads ~10× a memory's time), so the first page is not the longest wait.
 */
async function* pages<R>(read: PageReader<R>, start = 64): AsyncGenerator<R> {
  const pace = new Pacer({ ...DEFAULT_PACE, min: 1, start });
  // The next page is asked for only once this one's lines are written. Asking for it at once
  // (while these lines are made) was tried: the database read it meanwhile, but a call of two
  // statements then waited behind a page for each, and the longest wait of another call doubled.
  let after: R | null = null;
  for (;;) {
    const limit = pace.size;
    const { rows } = await pace.time(limit, () => read(after, limit));
    for (const r of rows) yield r;
    if (rows.length < limit) return;
    after = rows[rows.length - 1]!;
  }
}

/**
 * What existed when the export started: rows written later (by sequence or
 * id) are left out, and a row changed later is written as it was then, from
 * its history (docs/history.md keeps every state). So a write made during an
 * export is either wholly in the file or not at all. One statement reads
 * every mark, so they all stand for the same moment.
 */
interface Marks {
  seq: string;
  memoryVersion: string;
  userModelVersion: string;
  message: string;
}

async function readMarks(db: Queryable, id: string): Promise<Marks> {
  const { rows } = await db.query<Marks>(
    `SELECT ${MEMORY_MARK_SQL} AS seq, ${MEMORY_VERSION_MARK_SQL} AS "memoryVersion",
            ${USER_MODEL_VERSION_MARK_SQL} AS "userModelVersion", ${MESSAGE_MARK_SQL} AS message`,
    [id],
  );
  return rows[0]!;
}

/** Counts each record it passes on (for the end record) and reports it. */
class Tally {
  readonly counts: Record<string, number> = {};
  constructor(private readonly onRow?: () => void) {}
  *out(r: HearthRecord): Generator<HearthRecord> {
    this.counts[r.type] = (this.counts[r.type] ?? 0) + 1;
    this.onRow?.();
    yield r;
  }
}

/**
 * A persona's memories and their history. A link to a conversation made
 * after the start (`conv`) would point outside the file: it is left out.
 */
async function* memoryRecords(db: Queryable, id: string, mark: Marks, conv: (c: string | null) => string | null, t: Tally): AsyncGenerator<HearthRecord> {
  for await (const { seq: _seq, ...m } of pages(memoryPages(db, id, mark.seq, mark.memoryVersion))) {
    yield* t.out({ type: 'memory', ...m, conversationId: conv(m.conversationId) });
  }
  for await (const { id: _id, ...v } of pages(memoryVersionPages(db, id, mark.memoryVersion))) {
    yield* t.out({ type: 'memoryVersion', ...v, conversationId: conv(v.conversationId) });
  }
}

/** A persona's user model and its history. */
async function* userModelRecords(db: Queryable, id: string, mark: Marks, conv: (c: string | null) => string | null, t: Tally): AsyncGenerator<HearthRecord> {
  for await (const { gone, ...u } of pages(userModelPages(db, id, mark.userModelVersion))) {
    if (!gone) yield* t.out({ type: 'userModel', ...u });
  }
  for await (const { id: _id, ...v } of pages(userModelVersionPages(db, id, mark.userModelVersion))) {
    yield* t.out({ type: 'userModelVersion', ...v, conversationId: conv(v.conversationId) });
  }
}

/** A persona's documents, each followed by its chunks; a document replaced meanwhile stops the export (knowledge/transfer.ts). */
async function* knowledgeRecords(db: Queryable, id: string, t: Tally): AsyncGenerator<HearthRecord> {
  for await (const s of pages(sourcePages(db, id))) {
    yield* t.out({ type: 'knowledgeSource', ...s });
    for await (const c of pages(chunkPages(db, id, s.source), 4)) yield* t.out({ type: 'knowledgeChunk', ...c });
    await checkSourceUnchanged(db, id, s);
  }
}

/** Every record of one persona, in the order an import needs them (docs/export.md); each table read through its own store. */
export async function* personaRecords(db: Queryable, id: string, onRow?: () => void): AsyncGenerator<HearthRecord> {
  const t = new Tally(onRow);
  const mark = await readMarks(db, id);
  yield* t.out({ type: 'persona', ...(await exportPersonaRow(db, id)) });
  /** Conversations in the file: a link to one made after the start would point outside it. */
  const inFile = new Set<string>();
  const conv = (c: string | null) => (c !== null && inFile.has(c) ? c : null);
  for (const c of await exportConversations(db, id)) {
    inFile.add(c.id);
    yield* t.out({ type: 'conversation', ...c });
  }
  yield* memoryRecords(db, id, mark, conv, t);
  // An incognito chat's messages are not in the file, as its conversation is not (docs/privacy.md).
  for await (const { id: _id, ...m } of pages(messagePages(db, id, mark.message))) {
    if (inFile.has(m.conversationId)) yield* t.out({ type: 'message', ...m });
  }
  yield* userModelRecords(db, id, mark, conv, t);
  yield* knowledgeRecords(db, id, t);
  yield { type: 'end', counts: t.counts };
}

/** For progress only: one count per table, each a short statement (one over the whole persona held the database ~0.1 s at 5k). */
async function countRows(db: Queryable, id: string): Promise<number> {
  let total = 1;
  for (const count of [countMemories, countVersions, countUserModel, countKnowledge, countConversations, countMessages]) total += await count(db, id);
  return total;
}

export function headerLine(ctx: CoreContext, exportedAt: Date): Header {
  return { format: FORMAT, version: FORMAT_VERSION, appVersion: APP_VERSION, exportedAt: exportedAt.toISOString(), embeddingModel: ctx.embedder.model() };
}

async function removeStale(dir: string, now: number): Promise<void> {
  for (const f of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, f);
    const s = await stat(path).catch(() => null);
    if (s && now - s.mtimeMs > STALE_MS) await rm(path, { force: true });
  }
}

export interface ExportedFile {
  name: string;
  bytes: number;
  /** Where the core wrote it (inside the data folder); doors hand it on and never show it to a browser page. */
  path: string;
}

/**
 * Writes the persona to a new private file under the exports folder. Reads
 * are paged outside any transaction, so other calls carry on meanwhile: a
 * row written while the export runs may or may not be in the file.
 */
export async function exportPersona(ctx: CoreContext, id: string, onProgress?: Progress): Promise<ExportedFile> {
  // Not getPersona: its counts read every row of the persona in one statement (docs/export.md).
  await requirePersona(ctx.db, id);
  const dir = exportsDir(ctx);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await removeStale(dir, ctx.now().getTime());
  const path = join(dir, `${randomUUID()}.hearth`);
  const total = await countRows(ctx.db, id);
  let done = 0;
  let last = 0;
  const tick = () => {
    done++;
    const t = Date.now();
    if (onProgress && t - last > 200) {
      last = t;
      onProgress(done, total);
    }
  };
  const header = headerLine(ctx, ctx.now());
  /** The name in the file names it: the persona as the export read it. */
  let name = '';
  async function* lines(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    const turn = new EventLoopTurns();
    for await (const r of personaRecords(ctx.db, id, tick)) {
      if (r.type === 'persona') name = r.name;
      yield `${JSON.stringify(r)}\n`;
      await turn.maybe();
    }
  }
  try {
    // Level 1: vectors are most of the file and barely compress; the default level took ~40% more CPU for a file 1% smaller.
    await pipeline(Readable.from(lines()), createGzip({ level: 1 }), createWriteStream(path, { mode: 0o600, flags: 'wx' }));
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  onProgress?.(total, total);
  return { name: exportFileName(name), bytes: (await stat(path)).size, path };
}
