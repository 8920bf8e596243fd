// personas.export: streams one persona out as a .hearth file (docs/export.md).
// Rows are read in pages by key, never the whole persona at once, and go
// through gzip to disk with backpressure, so memory stays flat at any size.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { APP_VERSION } from '../info/handlers';
import { getPersona } from '../personas/store';
import { FORMAT, FORMAT_VERSION, type HearthRecord, type Header, type RecordOf, vectorToBase64 } from './format';

const PAGE = 500;
/** Export files the doors did not collect (a download never fetched) are removed after this long. */
const STALE_MS = 60 * 60 * 1000;

/** Timestamps as text with microseconds: a JS Date would drop them and the round trip would not be exact. */
const ts = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function exportsDir(ctx: Pick<CoreContext, 'dataDir'>): string {
  return ctx.dataDir ? join(ctx.dataDir, 'exports') : join(tmpdir(), 'hearth-exports');
}

/** A file name from the persona's display name: letters and digits kept, any script. */
export function exportFileName(name: string): string {
  const base = name.normalize('NFC').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
  return `${base || 'persona'}.hearth`;
}

type Progress = (done: number, total: number) => void;

async function* pages<R>(fetch: (after: R | null) => Promise<R[]>): AsyncGenerator<R> {
  let after: R | null = null;
  for (;;) {
    const rows = await fetch(after);
    for (const r of rows) yield r;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!;
  }
}

const vec = (b: Uint8Array | null) => (b ? vectorToBase64(b) : null);

/** Every record of one persona, in the order an import needs them (docs/export.md). */
export async function* personaRecords(db: Queryable, id: string, onRow?: () => void): AsyncGenerator<HearthRecord> {
  const counts: Record<string, number> = {};
  function* out(r: HearthRecord): Generator<HearthRecord> {
    counts[r.type] = (counts[r.type] ?? 0) + 1;
    onRow?.();
    yield r;
  }

  const { rows: p } = await db.query<{ id: string; name: string; created_at: string }>(
    `SELECT id, name, ${ts('created_at')} AS created_at FROM personas WHERE id = $1`,
    [id],
  );
  yield* out({ type: 'persona', id: p[0]!.id, name: p[0]!.name, createdAt: p[0]!.created_at });

  const { rows: convs } = await db.query<Record<string, string | number | null>>(
    `SELECT id, summary, memory_snapshot, user_msgs_since_nudge, ${ts('created_at')} AS created_at, ${ts('updated_at')} AS updated_at
     FROM conversations WHERE persona = $1 ORDER BY id`,
    [id],
  );
  for (const c of convs) {
    yield* out({
      type: 'conversation',
      id: String(c.id),
      summary: String(c.summary),
      memorySnapshot: c.memory_snapshot === null ? null : String(c.memory_snapshot),
      userMsgsSinceNudge: Number(c.user_msgs_since_nudge),
      createdAt: String(c.created_at),
      updatedAt: String(c.updated_at),
    });
  }

  type MemoryRow = {
    id: string; category: string | null; content: string; importance: number; day: string; origin: string;
    conversation_id: string | null; inserted_at: string; updated_at: string; emb: Uint8Array | null;
    embedding_model: string | null; embedding_error: string | null; seq: string; superseded_by: string | null; superseded_at: string | null;
  };
  // seq is the order memories were written in (same-day neighbours rank together): kept by writing them in it.
  for await (const m of pages<MemoryRow>(async (after) =>
    (await db.query<MemoryRow>(
      `SELECT id, category, content, importance, day::text AS day, origin, conversation_id, ${ts('inserted_at')} AS inserted_at,
              ${ts('updated_at')} AS updated_at, vector_send(embedding) AS emb, embedding_model, embedding_error, seq::text AS seq,
              superseded_by, ${ts('superseded_at')} AS superseded_at
       FROM memories WHERE persona = $1 AND seq > $2::bigint ORDER BY seq LIMIT ${PAGE}`,
      [id, after ? after.seq : '0'],
    )).rows,
  )) {
    yield* out({
      type: 'memory',
      id: m.id,
      category: m.category,
      content: m.content,
      importance: m.importance,
      day: m.day,
      origin: m.origin,
      conversationId: m.conversation_id,
      insertedAt: m.inserted_at,
      updatedAt: m.updated_at,
      embedding: vec(m.emb),
      embeddingModel: m.embedding_model,
      embeddingError: m.embedding_error,
      supersededBy: m.superseded_by,
      supersededAt: m.superseded_at,
    });
  }

  type VersionRow = {
    id: string; memory_id: string; version: number; change: RecordOf<'memoryVersion'>['change']; content: string; category: string | null;
    importance: number; day: string; superseded_by: string | null; actor: string | null; conversation_id: string | null; reason: string | null;
    valid_from: string; valid_to: string | null;
  };
  // Versions in the order they were written (their identity id), which an import keeps by writing them in it.
  for await (const v of pages<VersionRow>(async (after) =>
    (await db.query<VersionRow>(
      `SELECT id::text AS id, memory_id, version, change, content, category, importance, day::text AS day, superseded_by, actor, conversation_id,
              reason, ${ts('valid_from')} AS valid_from, ${ts('valid_to')} AS valid_to
       FROM memory_versions WHERE persona = $1 AND id > $2::bigint ORDER BY id LIMIT ${PAGE}`,
      [id, after ? after.id : '0'],
    )).rows,
  )) {
    yield* out({
      type: 'memoryVersion',
      memoryId: v.memory_id,
      version: v.version,
      change: v.change,
      content: v.content,
      category: v.category,
      importance: v.importance,
      day: v.day,
      supersededBy: v.superseded_by,
      actor: v.actor,
      conversationId: v.conversation_id,
      reason: v.reason,
      validFrom: v.valid_from,
      validTo: v.valid_to,
    });
  }

  type MessageRow = {
    id: string; conversation_id: string; role: 'system' | 'user' | 'assistant' | 'tool'; content: string; tool_calls: unknown;
    tool_call_id: string | null; memory_ids: string[] | null; folded: boolean; created_at: string;
  };
  for await (const m of pages<MessageRow>(async (after) =>
    (await db.query<MessageRow>(
      `SELECT x.id::text AS id, x.conversation_id, x.role, x.content, x.tool_calls, x.tool_call_id, x.memory_ids, x.folded,
              ${ts('x.created_at')} AS created_at
       FROM messages x JOIN conversations c ON c.id = x.conversation_id
       WHERE c.persona = $1 AND x.id > $2::bigint ORDER BY x.id LIMIT ${PAGE}`,
      [id, after ? after.id : '0'],
    )).rows,
  )) {
    yield* out({
      type: 'message',
      conversationId: m.conversation_id,
      role: m.role,
      content: m.content,
      toolCalls: m.tool_calls ?? null,
      toolCallId: m.tool_call_id,
      memoryIds: m.memory_ids,
      folded: m.folded,
      createdAt: m.created_at,
    });
  }

  type UserModelRow = { id: string; dimension: string; content: string; confidence: number; inserted_at: string; updated_at: string };
  for await (const u of pages<UserModelRow>(async (after) =>
    (await db.query<UserModelRow>(
      `SELECT id, dimension, content, confidence, ${ts('inserted_at')} AS inserted_at, ${ts('updated_at')} AS updated_at
       FROM user_models WHERE persona = $1 AND dimension > $2 ORDER BY dimension LIMIT ${PAGE}`,
      [id, after ? after.dimension : ''],
    )).rows,
  )) {
    yield* out({ type: 'userModel', id: u.id, dimension: u.dimension, content: u.content, confidence: u.confidence, insertedAt: u.inserted_at, updatedAt: u.updated_at });
  }

  type UserModelVersionRow = {
    id: string; dimension: string; version: number; change: RecordOf<'userModelVersion'>['change']; content: string | null; confidence: number | null;
    actor: string | null; conversation_id: string | null; reason: string | null; valid_from: string; valid_to: string | null;
  };
  for await (const v of pages<UserModelVersionRow>(async (after) =>
    (await db.query<UserModelVersionRow>(
      `SELECT id::text AS id, dimension, version, change, content, confidence, actor, conversation_id, reason,
              ${ts('valid_from')} AS valid_from, ${ts('valid_to')} AS valid_to
       FROM user_model_versions WHERE persona = $1 AND id > $2::bigint ORDER BY id LIMIT ${PAGE}`,
      [id, after ? after.id : '0'],
    )).rows,
  )) {
    yield* out({
      type: 'userModelVersion',
      dimension: v.dimension,
      version: v.version,
      change: v.change,
      content: v.content,
      confidence: v.confidence,
      actor: v.actor,
      conversationId: v.conversation_id,
      reason: v.reason,
      validFrom: v.valid_from,
      validTo: v.valid_to,
    });
  }

  type SourceRow = { source: string; kind: string | null; bytes: string | null; pages: number | null; ingested_at: string };
  type ChunkRow = {
    id: string; chunk_index: number; content: string; page_from: number | null; page_to: number | null; emb: Uint8Array | null;
    embedding_model: string | null; embedding_error: string | null; inserted_at: string;
  };
  // A source whose chunks have no source row (none today) would still be exported through its chunks' source names.
  for await (const s of pages<SourceRow>(async (after) =>
    (await db.query<SourceRow>(
      `SELECT source, kind, bytes::text AS bytes, pages, ${ts('ingested_at')} AS ingested_at
       FROM knowledge_sources WHERE persona = $1 AND source > $2 ORDER BY source LIMIT ${PAGE}`,
      [id, after ? after.source : ''],
    )).rows,
  )) {
    yield* out({ type: 'knowledgeSource', source: s.source, kind: s.kind, bytes: s.bytes === null ? null : Number(s.bytes), pages: s.pages, ingestedAt: s.ingested_at });
    for await (const c of pages<ChunkRow>(async (after) =>
      (await db.query<ChunkRow>(
        `SELECT id, chunk_index, content, page_from, page_to, vector_send(embedding) AS emb, embedding_model, embedding_error,
                ${ts('inserted_at')} AS inserted_at
         FROM knowledge_chunks WHERE persona = $1 AND source = $2 AND chunk_index > $3 ORDER BY chunk_index LIMIT ${PAGE}`,
        [id, s.source, after ? after.chunk_index : -1],
      )).rows,
    )) {
      yield* out({
        type: 'knowledgeChunk',
        id: c.id,
        source: s.source,
        chunkIndex: c.chunk_index,
        content: c.content,
        pageFrom: c.page_from,
        pageTo: c.page_to,
        embedding: vec(c.emb),
        embeddingModel: c.embedding_model,
        embeddingError: c.embedding_error,
        insertedAt: c.inserted_at,
      });
    }
  }

  yield { type: 'end', counts };
}

async function countRows(db: Queryable, id: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT ((SELECT count(*) FROM memories WHERE persona = $1) + (SELECT count(*) FROM user_models WHERE persona = $1)
      + (SELECT count(*) FROM knowledge_sources WHERE persona = $1) + (SELECT count(*) FROM knowledge_chunks WHERE persona = $1)
      + (SELECT count(*) FROM conversations WHERE persona = $1)
      + (SELECT count(*) FROM memory_versions WHERE persona = $1) + (SELECT count(*) FROM user_model_versions WHERE persona = $1)
      + (SELECT count(*) FROM messages x JOIN conversations c ON c.id = x.conversation_id WHERE c.persona = $1) + 1)::text AS n`,
    [id],
  );
  return Number(rows[0]?.n ?? 0);
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
  const persona = await getPersona(ctx.db, id);
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
  async function* lines(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    for await (const r of personaRecords(ctx.db, id, tick)) yield `${JSON.stringify(r)}\n`;
  }
  try {
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(path, { mode: 0o600, flags: 'wx' }));
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  onProgress?.(total, total);
  return { name: exportFileName(persona.name), bytes: (await stat(path)).size, path };
}
