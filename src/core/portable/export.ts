// personas.export: streams one persona out as a .hearth file (docs/export.md).
// Rows are read in pages by key, never the whole persona at once, and go
// through gzip to disk with backpressure, so memory stays flat at any size.
// Pages are sized by time (pace.ts) and read outside any transaction, so
// other calls are answered in between; the file still shows the persona as it
// was when the export started (marks below), never half of a later change.
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
import type { DbQueryResult } from '../db/protocol';
import { APP_VERSION } from '../info/handlers';
import { getPersona } from '../personas/store';
import { AppError } from '../../shared/errors';
import { FORMAT, FORMAT_VERSION, type HearthRecord, type Header, type RecordOf } from './format';
import { DEFAULT_PACE, Pacer } from '../db/pace';

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

/**
 * Reads by key, a page at a time, each page sized to take ~40 ms (pace.ts).
 * `start`: the first page's rows, small where a row is costly (a document
 * chunk reads ~10× a memory's time), so the first page is not the longest wait.
 */
async function* pages<R>(fetch: (after: R | null, limit: number) => Promise<DbQueryResult<R>>, start = 64): AsyncGenerator<R> {
  const pace = new Pacer({ ...DEFAULT_PACE, min: 1, start });
  // The next page is asked for only once this one's lines are written. Asking for it at once
  // (while these lines are made) was tried: the database read it meanwhile, but a call of two
  // statements then waited behind a page for each, and the longest wait of another call doubled.
  let after: R | null = null;
  for (;;) {
    const limit = pace.size;
    const { rows } = await pace.time(limit, () => fetch(after, limit));
    for (const r of rows) yield r;
    if (rows.length < limit) return;
    after = rows[rows.length - 1]!;
  }
}

/**
 * The file's vector format (format.ts: base64 of the big-endian float32s, no
 * header, trailing zero components dropped), made in SQL from vector_send's
 * bytes (`send`, computed once per row): handing 6 kB of bytea per row to
 * JavaScript and encoding it there cost ~5× more.
 * PG's base64 breaks lines every 76 characters; they are removed.
 */
const vectorBase64 = (send: string) => `CASE WHEN ${send} IS NOT NULL THEN replace(encode(substring(${send} FROM 5 FOR
  ((length(rtrim(substring(${send} FROM 5), '\\x00'::bytea)) + 3) / 4) * 4), 'base64'), E'\\n', '') END`;

/**
 * What existed when the export started: rows written later (by sequence or
 * id) are left out, and a row changed later is written as it was then, from
 * its history (docs/history.md keeps every state). So a write made during an
 * export is either wholly in the file or not at all.
 */
interface Marks {
  seq: string;
  memoryVersion: string;
  userModelVersion: string;
  message: string;
}

async function readMarks(db: Queryable, id: string): Promise<Marks> {
  const { rows } = await db.query<Marks>(
    `SELECT (SELECT coalesce(max(seq), 0) FROM memories WHERE persona = $1)::text AS seq,
            (SELECT coalesce(max(id), 0) FROM memory_versions)::text AS "memoryVersion",
            (SELECT coalesce(max(id), 0) FROM user_model_versions)::text AS "userModelVersion",
            (SELECT coalesce(max(id), 0) FROM messages)::text AS message`,
    [id],
  );
  return rows[0]!;
}

/** Every record of one persona, in the order an import needs them (docs/export.md). */
export async function* personaRecords(db: Queryable, id: string, onRow?: () => void): AsyncGenerator<HearthRecord> {
  const counts: Record<string, number> = {};
  // A server without pgvector has bytea embedding columns that are always NULL and no vector_send
  // (docs/server-mode.md): its records carry no vectors, and an import elsewhere queues them for embedding.
  const send = (column: string) => (db.features?.vector === false ? 'NULL::bytea' : `vector_send(${column})`);
  const mark = await readMarks(db, id);
  /** Conversations in the file: a link to one made after the start would point outside it. */
  const inFile = new Set<string>();
  const conv = (c: string | null) => (c !== null && inFile.has(c) ? c : null);
  function* out(r: HearthRecord): Generator<HearthRecord> {
    counts[r.type] = (counts[r.type] ?? 0) + 1;
    onRow?.();
    yield r;
  }

  const { rows: p } = await db.query<{ id: string; name: string; avatar: string | null; created_at: string; local_only: boolean; mcp: boolean }>(
    `SELECT id, name, avatar, ${ts('created_at')} AS created_at, local_only, mcp FROM personas WHERE id = $1`,
    [id],
  );
  const pr = p[0]!;
  yield* out({ type: 'persona', id: pr.id, name: pr.name, avatar: pr.avatar, createdAt: pr.created_at, localOnly: pr.local_only, mcp: pr.mcp });

  // An incognito chat leaves nothing behind, in an export neither (docs/privacy.md); its messages follow (inFile).
  const { rows: convs } = await db.query<Record<string, string | number | null>>(
    `SELECT id, title, summary, memory_snapshot, user_msgs_since_nudge, ${ts('created_at')} AS created_at, ${ts('updated_at')} AS updated_at
     FROM conversations WHERE persona = $1 AND NOT incognito ORDER BY created_at, id`,
    [id],
  );
  for (const c of convs) {
    inFile.add(String(c.id));
    yield* out({
      type: 'conversation',
      id: String(c.id),
      title: String(c.title),
      summary: String(c.summary),
      memorySnapshot: c.memory_snapshot === null ? null : String(c.memory_snapshot),
      userMsgsSinceNudge: Number(c.user_msgs_since_nudge),
      createdAt: String(c.created_at),
      updatedAt: String(c.updated_at),
    });
  }

  type MemoryRow = {
    id: string; category: string | null; content: string; importance: number; day: string; origin: string;
    conversation_id: string | null; inserted_at: string; updated_at: string; emb: string | null;
    embedding_model: string | null; embedding_error: string | null; seq: string; superseded_by: string | null; superseded_at: string | null;
  };
  // seq is the order memories were written in (same-day neighbours rank together): kept by writing them in it.
  // A memory changed after the start (a version past the mark) is written as its last version before it says;
  // its vector too only if the text is the same. A supersession whose newer memory is out is out too.
  // The memories changed since the start (`c`, usually none) are found once per page by the (persona, id) index:
  // asking each row's history instead cost about a third of the page (docs/export.md).
  for await (const m of pages<MemoryRow>((after, limit) =>
    db.query<MemoryRow>(
      `SELECT m.id, CASE WHEN v.id IS NULL THEN m.category ELSE v.category END AS category,
              CASE WHEN v.id IS NULL THEN m.content ELSE v.content END AS content,
              CASE WHEN v.id IS NULL THEN m.importance ELSE v.importance END AS importance,
              (CASE WHEN v.id IS NULL THEN m.day ELSE v.day END)::text AS day, m.origin, m.conversation_id,
              ${ts('m.inserted_at')} AS inserted_at, ${ts('CASE WHEN v.id IS NULL THEN m.updated_at ELSE v.valid_from END')} AS updated_at,
              CASE WHEN same THEN ${vectorBase64('b.b')} END AS emb,
              CASE WHEN same THEN coalesce(m.embedding_model, m.staged_model) END AS embedding_model,
              CASE WHEN same THEN m.embedding_error END AS embedding_error, m.seq::text AS seq,
              CASE WHEN n.seq <= $4::bigint THEN n.id END AS superseded_by,
              CASE WHEN n.seq <= $4::bigint
                   THEN ${ts('CASE WHEN v.id IS NULL OR m.superseded_by IS NOT DISTINCT FROM v.superseded_by THEN m.superseded_at ELSE v.valid_from END')}
              END AS superseded_at
       FROM memories m
       CROSS JOIN (SELECT coalesce(array_agg(DISTINCT w.memory_id), '{}') AS ids FROM memory_versions w
                   WHERE w.persona = $1 AND w.id > $3::bigint) c
       LEFT JOIN LATERAL (
         SELECT p.id, p.content, p.category, p.importance, p.day, p.superseded_by, p.valid_from FROM memory_versions p
         WHERE m.id = ANY (c.ids) AND p.memory_id = m.id AND p.id <= $3::bigint ORDER BY p.version DESC LIMIT 1
       ) v ON true
       CROSS JOIN LATERAL (SELECT v.id IS NULL OR v.content = m.content AS same, ${send('m.embedding')} AS b) b
       LEFT JOIN memories n ON n.id = CASE WHEN v.id IS NULL THEN m.superseded_by ELSE v.superseded_by END
       WHERE m.persona = $1 AND m.seq > $2::bigint AND m.seq <= $4::bigint ORDER BY m.seq LIMIT ${limit}`,
      [id, after ? after.seq : '0', mark.memoryVersion, mark.seq],
    ),
  )) {
    yield* out({
      type: 'memory',
      id: m.id,
      category: m.category,
      content: m.content,
      importance: m.importance,
      day: m.day,
      origin: m.origin,
      conversationId: conv(m.conversation_id),
      insertedAt: m.inserted_at,
      updatedAt: m.updated_at,
      embedding: m.emb,
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
  // A version closed by a change after the start is still the current one in the file.
  for await (const v of pages<VersionRow>((after, limit) =>
    db.query<VersionRow>(
      `SELECT v.id::text AS id, v.memory_id, v.version, v.change, v.content, v.category, v.importance, v.day::text AS day, v.superseded_by,
              v.actor, v.conversation_id, v.reason, ${ts('v.valid_from')} AS valid_from,
              ${ts(`CASE WHEN v.change <> 'delete' AND EXISTS (
                       SELECT 1 FROM memory_versions n WHERE n.memory_id = v.memory_id AND n.version = v.version + 1 AND n.id > $3::bigint)
                     THEN NULL ELSE v.valid_to END`)} AS valid_to
       FROM memory_versions v WHERE v.persona = $1 AND v.id > $2::bigint AND v.id <= $3::bigint ORDER BY v.id LIMIT ${limit}`,
      [id, after ? after.id : '0', mark.memoryVersion],
    ),
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
      conversationId: conv(v.conversation_id),
      reason: v.reason,
      validFrom: v.valid_from,
      validTo: v.valid_to,
    });
  }

  type MessageRow = {
    id: string; conversation_id: string; role: 'system' | 'user' | 'assistant' | 'tool'; content: string; tool_calls: unknown;
    tool_call_id: string | null; memory_ids: string[] | null; folded: boolean; created_at: string;
  };
  for await (const m of pages<MessageRow>((after, limit) =>
    db.query<MessageRow>(
      `SELECT x.id::text AS id, x.conversation_id, x.role, x.content, x.tool_calls, x.tool_call_id, x.memory_ids, x.folded,
              ${ts('x.created_at')} AS created_at
       FROM messages x JOIN conversations c ON c.id = x.conversation_id
       WHERE c.persona = $1 AND x.id > $2::bigint AND x.id <= $3::bigint ORDER BY x.id LIMIT ${limit}`,
      [id, after ? after.id : '0', mark.message],
    ),
  )) {
    if (!inFile.has(m.conversation_id)) continue;
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

  // A user-model entry changed after the start is written as its last version before it; one added after is out.
  type UserModelRow = { id: string; dimension: string; content: string; confidence: number; inserted_at: string; updated_at: string; gone: boolean };
  for await (const u of pages<UserModelRow>((after, limit) =>
    db.query<UserModelRow>(
      `SELECT u.id, u.dimension, CASE WHEN n.later THEN v.content ELSE u.content END AS content,
              CASE WHEN n.later THEN v.confidence ELSE u.confidence END AS confidence, ${ts('u.inserted_at')} AS inserted_at,
              ${ts('CASE WHEN n.later THEN v.valid_from ELSE u.updated_at END')} AS updated_at,
              (n.later AND (v.id IS NULL OR v.change = 'delete')) AS gone
       FROM user_models u
       CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM user_model_versions w WHERE w.persona = u.persona AND w.dimension = u.dimension
                                                                            AND w.id > $3::bigint) AS later) n
       LEFT JOIN LATERAL (SELECT p.* FROM user_model_versions p WHERE n.later AND p.persona = u.persona AND p.dimension = u.dimension
                            AND p.id <= $3::bigint ORDER BY p.version DESC LIMIT 1) v ON true
       WHERE u.persona = $1 AND u.dimension > $2 ORDER BY u.dimension LIMIT ${limit}`,
      [id, after ? after.dimension : '', mark.userModelVersion],
    ),
  )) {
    if (u.gone) continue;
    yield* out({ type: 'userModel', id: u.id, dimension: u.dimension, content: u.content, confidence: u.confidence, insertedAt: u.inserted_at, updatedAt: u.updated_at });
  }

  type UserModelVersionRow = {
    id: string; dimension: string; version: number; change: RecordOf<'userModelVersion'>['change']; content: string | null; confidence: number | null;
    actor: string | null; conversation_id: string | null; reason: string | null; valid_from: string; valid_to: string | null;
  };
  for await (const v of pages<UserModelVersionRow>((after, limit) =>
    db.query<UserModelVersionRow>(
      `SELECT v.id::text AS id, v.dimension, v.version, v.change, v.content, v.confidence, v.actor, v.conversation_id, v.reason,
              ${ts('v.valid_from')} AS valid_from,
              ${ts(`CASE WHEN v.change <> 'delete' AND EXISTS (
                       SELECT 1 FROM user_model_versions n WHERE n.persona = v.persona AND n.dimension = v.dimension
                         AND n.version = v.version + 1 AND n.id > $3::bigint)
                     THEN NULL ELSE v.valid_to END`)} AS valid_to
       FROM user_model_versions v WHERE v.persona = $1 AND v.id > $2::bigint AND v.id <= $3::bigint ORDER BY v.id LIMIT ${limit}`,
      [id, after ? after.id : '0', mark.userModelVersion],
    ),
  )) {
    yield* out({
      type: 'userModelVersion',
      dimension: v.dimension,
      version: v.version,
      change: v.change,
      content: v.content,
      confidence: v.confidence,
      actor: v.actor,
      conversationId: conv(v.conversation_id),
      reason: v.reason,
      validFrom: v.valid_from,
      validTo: v.valid_to,
    });
  }

  type SourceRow = { source: string; kind: string | null; bytes: string | null; pages: number | null; ingested_at: string };
  type ChunkRow = {
    id: string; chunk_index: number; content: string; page_from: number | null; page_to: number | null; emb: string | null;
    embedding_model: string | null; embedding_error: string | null; inserted_at: string;
  };
  // A source whose chunks have no source row (none today) would still be exported through its chunks' source names.
  for await (const s of pages<SourceRow>((after, limit) =>
    db.query<SourceRow>(
      `SELECT source, kind, bytes::text AS bytes, pages, ${ts('ingested_at')} AS ingested_at
       FROM knowledge_sources WHERE persona = $1 AND source > $2 ORDER BY source LIMIT ${limit}`,
      [id, after ? after.source : ''],
    ),
  )) {
    yield* out({ type: 'knowledgeSource', source: s.source, kind: s.kind, bytes: s.bytes === null ? null : Number(s.bytes), pages: s.pages, ingestedAt: s.ingested_at });
    for await (const c of pages<ChunkRow>((after, limit) =>
      db.query<ChunkRow>(
        `SELECT id, chunk_index, content, page_from, page_to, ${vectorBase64(send('embedding'))} AS emb,
                coalesce(embedding_model, staged_model) AS embedding_model, embedding_error, ${ts('inserted_at')} AS inserted_at
         FROM knowledge_chunks WHERE persona = $1 AND source = $2 AND chunk_index > $3 ORDER BY chunk_index LIMIT ${limit}`,
        [id, s.source, after ? after.chunk_index : -1],
      ),
      4,
    )) {
      yield* out({
        type: 'knowledgeChunk',
        id: c.id,
        source: s.source,
        chunkIndex: c.chunk_index,
        content: c.content,
        pageFrom: c.page_from,
        pageTo: c.page_to,
        embedding: c.emb,
        embeddingModel: c.embedding_model,
        embeddingError: c.embedding_error,
        insertedAt: c.inserted_at,
      });
    }
    // A document is replaced as a whole (ingestion): if that happened while its chunks were read, they may mix
    // two versions. Say so rather than write a torn document.
    const { rows: still } = await db.query<{ at: string }>(
      `SELECT ${ts('ingested_at')} AS at FROM knowledge_sources WHERE persona = $1 AND source = $2`,
      [id, s.source],
    );
    if (still[0]?.at !== s.ingested_at) {
      throw new AppError('conflict', `"${s.source}" was replaced or removed while it was being exported. Export the persona again.`);
    }
  }

  yield { type: 'end', counts };
}

/** For progress only: one count per table, each a short statement (one over the whole persona held the database ~0.1 s at 5k). */
async function countRows(db: Queryable, id: string): Promise<number> {
  const counts = [
    'SELECT count(*)::int AS n FROM memories WHERE persona = $1',
    'SELECT count(*)::int AS n FROM memory_versions WHERE persona = $1',
    'SELECT count(*)::int AS n FROM user_models WHERE persona = $1',
    'SELECT count(*)::int AS n FROM user_model_versions WHERE persona = $1',
    'SELECT count(*)::int AS n FROM knowledge_sources WHERE persona = $1',
    'SELECT count(*)::int AS n FROM knowledge_chunks WHERE persona = $1',
    'SELECT count(*)::int AS n FROM conversations WHERE persona = $1 AND NOT incognito',
    'SELECT count(*)::int AS n FROM messages x JOIN conversations c ON c.id = x.conversation_id WHERE c.persona = $1 AND NOT c.incognito',
  ];
  let total = 1;
  for (const sql of counts) total += (await db.query<{ n: number }>(sql, [id])).rows[0]?.n ?? 0;
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
    // Level 1: vectors are most of the file and barely compress; the default level took ~40% more CPU for a file 1% smaller.
    await pipeline(Readable.from(lines()), createGzip({ level: 1 }), createWriteStream(path, { mode: 0o600, flags: 'wx' }));
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  onProgress?.(total, total);
  return { name: exportFileName(persona.name), bytes: (await stat(path)).size, path };
}
