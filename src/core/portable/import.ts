// personas.import: a .hearth file becomes a new persona, all or nothing
// (docs/export.md). A first pass reads the whole file (gzip checks its CRC
// and length, so a cut-short or damaged file is refused before the database
// is touched); the second pass validates every line again and writes it
// inside one transaction, so any bad line rolls everything back.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import type { Persona } from '../../shared/types';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { DB_DIMENSIONS } from '../db/vector';
import { enqueueEmbeddings } from '../embeddings/enqueue';
import {
  DEFAULT_MAINTENANCE_MB,
  dropIndexes,
  HNSW_INDEXES,
  hnswBuildMemoryMb,
  rebuild,
  TEXT_INDEXES,
} from '../memories/import';
import { getPersona, slugify } from '../personas/store';
import { memoryOrigin } from '../schemas';
import { base64ToVector, FORMAT, FORMAT_VERSION, headerSchema, type Header, type RecordOf, recordSchema } from './format';
import { gzipLines, importError } from './lines';

const ROWS_PER_STATEMENT = 200;
/** Same thresholds as the bulk memory import: below them, keeping the indexes is cheaper (memories/import.ts). */
const REBUILD_FROM = 2_000;
const KNOWLEDGE_HNSW = ['knowledge_embedding_idx', 'knowledge_embedding_local_idx'];

export interface ImportProgress {
  stage: 'checking' | 'writing' | 'indexing';
  done: number;
  total: number;
}

export interface ImportedPersona {
  persona: Persona;
  counts: Record<string, number>;
  /** Rows whose vectors were made by another model (or had none): queued for the backfill. */
  toEmbed: number;
}

interface Scan {
  lines: number;
  memories: number;
  chunks: number;
}

function parseJson(line: string, n: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw importError(`Line ${n} is not a JSON record: the file is damaged. Nothing was imported.`);
  }
}

function checkHeader(line: string | undefined): Header {
  if (line === undefined) throw importError('The file is empty: it holds no Hearth export. Nothing was imported.');
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw importError('This is not a Hearth export: its first line is not a Hearth header. Nothing was imported.');
  }
  const obj = (raw ?? {}) as Record<string, unknown>;
  if (obj.format !== FORMAT) throw importError(`This is not a Hearth persona export (its format is ${JSON.stringify(obj.format ?? null)}, not "${FORMAT}"). Nothing was imported.`);
  if (typeof obj.version === 'number' && obj.version > FORMAT_VERSION) {
    throw importError(`This file was made by a newer Hearth (format version ${obj.version}; this Hearth reads up to version ${FORMAT_VERSION}). Update Hearth, then import it. Nothing was imported.`);
  }
  const parsed = headerSchema.safeParse(raw);
  if (!parsed.success) throw importError(`Line 1, the header, is not valid: ${issues(parsed.error)}. Nothing was imported.`);
  return parsed.data;
}

function issues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || 'record'}: ${i.message}`).join('; ');
}

function parseRecord(line: string, n: number) {
  const raw = parseJson(line, n);
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) throw importError(`Line ${n} is not a valid record (${issues(parsed.error)}). Nothing was imported.`);
  const r = parsed.data;
  if (r.type === 'memory') {
    if (!r.content.trim()) throw importError(`Line ${n}: a memory with empty content. Nothing was imported.`);
    if (!memoryOrigin.safeParse(r.origin).success) throw importError(`Line ${n}: "${r.origin}" is not an origin Hearth knows. Nothing was imported.`);
  }
  if (r.type === 'userModel' && !r.dimension.trim()) throw importError(`Line ${n}: a user-model entry without a dimension name. Nothing was imported.`);
  return r;
}

/** Pass 1: the whole file decompresses, is UTF-8, and starts with a header we read. */
async function scan(path: string): Promise<{ header: Header; scan: Scan }> {
  let header: Header | null = null;
  const s: Scan = { lines: 0, memories: 0, chunks: 0 };
  for await (const [n, line] of gzipLines(path)) {
    if (n === 1) header = checkHeader(line);
    s.lines = n;
    if (line.startsWith('{"type":"memory"')) s.memories++;
    else if (line.startsWith('{"type":"knowledgeChunk"')) s.chunks++;
  }
  return { header: header ?? checkHeader(undefined), scan: s };
}

async function freePersona(q: Queryable, wantedId: string, name: string): Promise<{ id: string; name: string }> {
  const { rows } = await q.query<{ id: string; name: string }>('SELECT id, lower(name) AS name FROM personas');
  const ids = new Set(rows.map((r) => r.id));
  const names = new Set(rows.map((r) => r.name));
  let finalName = name;
  for (let k = 2; names.has(finalName.toLowerCase()); k++) finalName = `${name} (${k})`;
  let id = /^[a-z0-9][a-z0-9_-]{0,63}$/.test(wantedId) ? wantedId : slugify(name);
  const base = id.slice(0, 48);
  for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
  return { id, name: finalName };
}

/** Ids from the file already used in this database (or twice in one batch): they get new ones. */
async function remapIds(q: Queryable, table: 'memories' | 'knowledge_chunks' | 'user_models', ids: string[], map: Map<string, string>): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[])`, [ids]);
  const taken = new Set(rows.map((r) => r.id));
  const seen = new Set<string>();
  return ids.map((id) => {
    if (taken.has(id) || seen.has(id)) {
      const fresh = randomUUID();
      map.set(id, fresh);
      return fresh;
    }
    seen.add(id);
    return id;
  });
}

const values = (rows: number, cols: number, casts: string[]) =>
  Array.from({ length: rows }, (_, r) => `(${casts.map((c, i) => `$${r * cols + i + 1}${c}`).join(', ')})`).join(', ');

class Writer {
  readonly memoryIds = new Map<string, string>();
  readonly chunkIds = new Map<string, string>();
  readonly userModelIds = new Map<string, string>();
  readonly conversations = new Map<string, string>();
  readonly sources = new Set<string>();
  private memories: RecordOf<'memory'>[] = [];
  private messages: RecordOf<'message'>[] = [];
  private chunks: RecordOf<'knowledgeChunk'>[] = [];
  private versions: RecordOf<'memoryVersion'>[] = [];
  private userModelVersions: RecordOf<'userModelVersion'>[] = [];
  /** [the memory's id here, the file's id of the memory that replaced it, when]: set once every memory is in. */
  private supersessions: [string, string, string | null][] = [];
  /** Memory ids of versions whose memory was deleted (not in the file) and whose id is taken here. */
  private readonly versionIds = new Map<string, string>();
  toEmbed = 0;

  constructor(private readonly q: Queryable, readonly persona: string, private readonly model: string) {}

  private needsEmbedding(r: { embedding: string | null; embeddingModel: string | null }): boolean {
    return !r.embedding || r.embeddingModel !== this.model;
  }

  private vec(b64: string | null): Uint8Array | null {
    return b64 === null ? null : base64ToVector(b64, DB_DIMENSIONS);
  }

  async conversation(r: RecordOf<'conversation'>): Promise<void> {
    const { rows } = await this.q.query('SELECT 1 FROM conversations WHERE id = $1', [r.id]);
    const id = rows.length ? randomUUID() : r.id;
    this.conversations.set(r.id, id);
    await this.q.query(
      `INSERT INTO conversations (id, persona, summary, memory_snapshot, user_msgs_since_nudge, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)`,
      [id, this.persona, r.summary, r.memorySnapshot, r.userMsgsSinceNudge, r.createdAt, r.updatedAt],
    );
  }

  async memory(r: RecordOf<'memory'>): Promise<void> {
    this.memories.push(r);
    if (this.memories.length >= ROWS_PER_STATEMENT) await this.flushMemories();
  }

  async flushMemories(): Promise<void> {
    const batch = this.memories;
    if (!batch.length) return;
    this.memories = [];
    const ids = await remapIds(this.q, 'memories', batch.map((m) => m.id), this.memoryIds);
    batch.forEach((m, i) => m.supersededBy && this.supersessions.push([ids[i]!, m.supersededBy, m.supersededAt]));
    const params: unknown[] = [];
    batch.forEach((m, i) => {
      params.push(
        ids[i], this.persona, m.category, m.content, m.importance, m.day, this.vec(m.embedding), m.embeddingModel, m.embeddingError,
        m.origin, m.conversationId === null ? null : this.conversations.get(m.conversationId), m.insertedAt, m.updatedAt,
      );
    });
    await this.q.query(
      `INSERT INTO memories (id, persona, category, content, importance, day, embedding, embedding_model, embedding_error, origin,
                             conversation_id, inserted_at, updated_at)
       VALUES ${values(batch.length, 13, ['::uuid', '', '', '', '::int', '::date', '', '', '', '', '::uuid', '::timestamptz', '::timestamptz'])}`,
      params,
    );
    const embed = ids.filter((_, i) => this.needsEmbedding(batch[i]!));
    this.toEmbed += embed.length;
    await enqueueEmbeddings(this.q, this.persona, 'memory', embed);
  }

  /**
   * Supersession links point at memories anywhere in the file, so they are set
   * after the last memory is in (the foreign key needs the newer row).
   */
  async linkSupersessions(line: number): Promise<void> {
    const links = this.supersessions;
    this.supersessions = [];
    for (let i = 0; i < links.length; i += ROWS_PER_STATEMENT) {
      const batch = links.slice(i, i + ROWS_PER_STATEMENT);
      const params: unknown[] = [];
      for (const [id, by, at] of batch) params.push(id, this.memoryIds.get(by) ?? by, at);
      const { affectedRows } = await this.q.query(
        `UPDATE memories m SET superseded_by = v.by, superseded_at = v.at
         FROM (VALUES ${values(batch.length, 3, ['::uuid', '::uuid', '::timestamptz'])}) AS v(id, by, at)
         WHERE m.id = v.id AND m.persona = $${batch.length * 3 + 1}
           AND EXISTS (SELECT 1 FROM memories n WHERE n.id = v.by AND n.persona = $${batch.length * 3 + 1})`,
        [...params, this.persona],
      );
      if (affectedRows !== batch.length) {
        throw importError(`Before line ${line}: a memory is marked as replaced by a memory the file does not hold. Nothing was imported.`);
      }
    }
  }

  async memoryVersion(r: RecordOf<'memoryVersion'>): Promise<void> {
    this.versions.push(r);
    if (this.versions.length >= ROWS_PER_STATEMENT) await this.flushVersions();
  }

  /** A version's memory id: the memory's id here, or (for a deleted memory) a fresh one if the file's is taken. */
  private async versionMemoryId(fileId: string): Promise<string> {
    const known = this.memoryIds.get(fileId) ?? this.versionIds.get(fileId);
    if (known) return known;
    const { rows } = await this.q.query(
      'SELECT 1 FROM memories WHERE id = $1 AND persona <> $2 UNION ALL SELECT 1 FROM memory_versions WHERE memory_id = $1 AND persona <> $2 LIMIT 1',
      [fileId, this.persona],
    );
    const id = rows.length ? randomUUID() : fileId;
    this.versionIds.set(fileId, id);
    return id;
  }

  async flushVersions(): Promise<void> {
    const batch = this.versions;
    if (!batch.length) return;
    this.versions = [];
    const params: unknown[] = [];
    for (const v of batch) {
      params.push(
        await this.versionMemoryId(v.memoryId), this.persona, v.version, v.change, v.content, v.category, v.importance, v.day,
        v.supersededBy === null ? null : (this.memoryIds.get(v.supersededBy) ?? this.versionIds.get(v.supersededBy) ?? v.supersededBy),
        v.actor, v.conversationId === null ? null : this.conversations.get(v.conversationId), v.reason, v.validFrom, v.validTo,
      );
    }
    await this.q.query(
      `INSERT INTO memory_versions (memory_id, persona, version, change, content, category, importance, day, superseded_by, actor,
                                    conversation_id, reason, valid_from, valid_to)
       VALUES ${values(batch.length, 14, ['::uuid', '', '::int', '', '', '', '::int', '::date', '::uuid', '', '::uuid', '', '::timestamptz', '::timestamptz'])}`,
      params,
    );
  }

  async userModelVersion(r: RecordOf<'userModelVersion'>): Promise<void> {
    this.userModelVersions.push(r);
    if (this.userModelVersions.length >= ROWS_PER_STATEMENT) await this.flushUserModelVersions();
  }

  async flushUserModelVersions(): Promise<void> {
    const batch = this.userModelVersions;
    if (!batch.length) return;
    this.userModelVersions = [];
    const params: unknown[] = [];
    for (const v of batch) {
      params.push(
        this.persona, v.dimension, v.version, v.change, v.content, v.confidence, v.actor,
        v.conversationId === null ? null : this.conversations.get(v.conversationId), v.reason, v.validFrom, v.validTo,
      );
    }
    await this.q.query(
      `INSERT INTO user_model_versions (persona, dimension, version, change, content, confidence, actor, conversation_id, reason, valid_from, valid_to)
       VALUES ${values(batch.length, 11, ['', '', '::int', '', '', '::int', '', '::uuid', '', '::timestamptz', '::timestamptz'])}`,
      params,
    );
  }

  async message(r: RecordOf<'message'>): Promise<void> {
    this.messages.push(r);
    if (this.messages.length >= ROWS_PER_STATEMENT) await this.flushMessages();
  }

  async flushMessages(): Promise<void> {
    const batch = this.messages;
    if (!batch.length) return;
    this.messages = [];
    const params: unknown[] = [];
    for (const m of batch) {
      params.push(
        this.conversations.get(m.conversationId), m.role, m.content, m.toolCalls === null ? null : JSON.stringify(m.toolCalls), m.toolCallId,
        m.memoryIds === null ? null : JSON.stringify(m.memoryIds.map((id) => this.memoryIds.get(id) ?? this.versionIds.get(id) ?? id)), m.folded, m.createdAt,
      );
    }
    // Message ids are the database's own sequence: new here, in the file's order.
    await this.q.query(
      `INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, memory_ids, folded, created_at)
       VALUES ${values(batch.length, 8, ['::uuid', '', '', '::jsonb', '', '::jsonb', '::boolean', '::timestamptz'])}`,
      params,
    );
  }

  async userModel(r: RecordOf<'userModel'>): Promise<void> {
    const [id] = await remapIds(this.q, 'user_models', [r.id], this.userModelIds);
    await this.q.query(
      `INSERT INTO user_models (id, persona, dimension, content, confidence, inserted_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)`,
      [id, this.persona, r.dimension, r.content, r.confidence, r.insertedAt, r.updatedAt],
    );
  }

  async source(r: RecordOf<'knowledgeSource'>): Promise<void> {
    this.sources.add(r.source);
    await this.q.query(
      `INSERT INTO knowledge_sources (persona, source, kind, bytes, pages, ingested_at) VALUES ($1, $2, $3, $4, $5, $6::timestamptz)`,
      [this.persona, r.source, r.kind, r.bytes, r.pages, r.ingestedAt],
    );
  }

  async chunk(r: RecordOf<'knowledgeChunk'>): Promise<void> {
    this.chunks.push(r);
    if (this.chunks.length >= ROWS_PER_STATEMENT) await this.flushChunks();
  }

  async flushChunks(): Promise<void> {
    const batch = this.chunks;
    if (!batch.length) return;
    this.chunks = [];
    const ids = await remapIds(this.q, 'knowledge_chunks', batch.map((c) => c.id), this.chunkIds);
    const params: unknown[] = [];
    batch.forEach((c, i) => {
      params.push(ids[i], this.persona, c.source, c.chunkIndex, c.content, c.pageFrom, c.pageTo, this.vec(c.embedding), c.embeddingModel, c.embeddingError, c.insertedAt);
    });
    await this.q.query(
      `INSERT INTO knowledge_chunks (id, persona, source, chunk_index, content, page_from, page_to, embedding, embedding_model, embedding_error, inserted_at)
       VALUES ${values(batch.length, 11, ['::uuid', '', '', '::int', '', '::int', '::int', '', '', '', '::timestamptz'])}`,
      params,
    );
    const embed = ids.filter((_, i) => this.needsEmbedding(batch[i]!));
    this.toEmbed += embed.length;
    await enqueueEmbeddings(this.q, this.persona, 'knowledge', embed);
  }

  async flushAll(line: number): Promise<void> {
    await this.flushMemories();
    await this.linkSupersessions(line);
    await this.flushVersions();
    await this.flushUserModelVersions();
    await this.flushMessages();
    await this.flushChunks();
  }
}

/**
 * Imports the .hearth file at `path` as a new persona. Nothing is written
 * unless every line is valid and the file ends with its `end` record.
 */
export async function importPersonaFile(
  ctx: CoreContext,
  path: string,
  onProgress?: (p: ImportProgress) => void,
): Promise<ImportedPersona> {
  onProgress?.({ stage: 'checking', done: 0, total: 1 });
  const { scan: s } = await scan(path);
  const model = ctx.embedder.model();
  let buildMb = DEFAULT_MAINTENANCE_MB;
  let last = 0;
  const result = await ctx.db.transaction(async (tx) => {
    const dropped = {
      memHnsw: s.memories >= REBUILD_FROM ? await dropIndexes(tx, HNSW_INDEXES) : [],
      memText: s.memories >= REBUILD_FROM ? await dropIndexes(tx, TEXT_INDEXES) : [],
      chunkHnsw: s.chunks >= REBUILD_FROM ? await dropIndexes(tx, KNOWLEDGE_HNSW, 'knowledge_chunks') : [],
    };
    let w: Writer | null = null;
    let counts: Record<string, number> = {};
    let ended = false;
    let section = 0; // records come in this order (docs/export.md)
    const order: Record<string, number> = {
      persona: 0, conversation: 1, memory: 2, memoryVersion: 3, message: 4, userModel: 5, userModelVersion: 6, knowledgeSource: 7, knowledgeChunk: 7,
    };
    for await (const [n, line] of gzipLines(path)) {
      if (n === 1) continue;
      if (ended) {
        if (line.trim()) throw importError(`Line ${n} comes after the end record: the file was changed after export. Nothing was imported.`);
        continue;
      }
      const r = parseRecord(line, n);
      if (r.type === 'end') {
        await w?.flushAll(n);
        for (const [type, count] of Object.entries(r.counts)) {
          if ((counts[type] ?? 0) !== count) {
            throw importError(`The file says it holds ${count} ${type} records but ${counts[type] ?? 0} were read: it is damaged. Nothing was imported.`);
          }
        }
        ended = true;
        continue;
      }
      if (n === 2 && r.type !== 'persona') throw importError('Line 2 must describe the persona: the file is damaged. Nothing was imported.');
      if (r.type === 'persona' && n !== 2) throw importError(`Line ${n} describes a second persona: a .hearth file holds one. Nothing was imported.`);
      const at = order[r.type]!;
      if (at < section) throw importError(`Line ${n}: a ${r.type} record out of place (the file was edited or damaged). Nothing was imported.`);
      if (at > section) {
        await w?.flushAll(n);
        section = at;
      }
      counts[r.type] = (counts[r.type] ?? 0) + 1;
      const persona = w;
      try {
        switch (r.type) {
          case 'persona': {
            const { id, name } = await freePersona(tx, r.id, r.name);
            await tx.query('INSERT INTO personas (id, name, created_at) VALUES ($1, $2, $3::timestamptz)', [id, name, r.createdAt]);
            w = new Writer(tx, id, model);
            break;
          }
          case 'conversation':
            await persona!.conversation(r);
            break;
          case 'memory':
            if (r.conversationId !== null && !persona!.conversations.has(r.conversationId)) {
              throw importError(`Line ${n}: the memory names a conversation the file does not hold. Nothing was imported.`);
            }
            await persona!.memory(r);
            break;
          case 'memoryVersion':
            if (r.conversationId !== null && !persona!.conversations.has(r.conversationId)) {
              throw importError(`Line ${n}: the memory version names a conversation the file does not hold. Nothing was imported.`);
            }
            await persona!.memoryVersion(r);
            break;
          case 'userModelVersion':
            if (r.conversationId !== null && !persona!.conversations.has(r.conversationId)) {
              throw importError(`Line ${n}: the user-model version names a conversation the file does not hold. Nothing was imported.`);
            }
            await persona!.userModelVersion(r);
            break;
          case 'message':
            if (!persona!.conversations.has(r.conversationId)) {
              throw importError(`Line ${n}: the message belongs to a conversation the file does not hold. Nothing was imported.`);
            }
            await persona!.message(r);
            break;
          case 'userModel':
            await persona!.userModel(r);
            break;
          case 'knowledgeSource':
            await persona!.flushChunks();
            await persona!.source(r);
            break;
          case 'knowledgeChunk':
            if (!persona!.sources.has(r.source)) throw importError(`Line ${n}: a chunk of "${r.source}", a document the file does not list. Nothing was imported.`);
            await persona!.chunk(r);
            break;
        }
      } catch (e) {
        if (e instanceof AppError) throw e;
        // A row the database refused (a duplicate dimension, a chunk index twice): name the line we were at.
        throw importError(`Line ${n} (or one of the ${ROWS_PER_STATEMENT} before it) could not be stored: ${(e as Error).message}. Nothing was imported.`);
      }
      const t = Date.now();
      if (onProgress && t - last > 200) {
        last = t;
        onProgress({ stage: 'writing', done: n, total: s.lines });
      }
    }
    if (!w) throw importError('The file holds a header but no persona. Nothing was imported.');
    if (!ended) throw importError(`The file ends at line ${s.lines} without its end record: it was cut short. Nothing was imported.`);
    const writer = w as Writer;
    onProgress?.({ stage: 'indexing', done: s.lines, total: s.lines });
    await rebuild(tx, [...dropped.memText]);
    if (dropped.memHnsw.length || dropped.chunkHnsw.length) {
      buildMb = Math.max(await hnswBuildMemoryMb(tx), await hnswBuildMemoryMb(tx, 'knowledge_chunks'));
      await tx.exec(`SET LOCAL maintenance_work_mem = '${buildMb}MB'`);
      await rebuild(tx, [...dropped.memHnsw, ...dropped.chunkHnsw]);
    }
    counts = Object.fromEntries(Object.entries(counts).sort());
    return { id: writer.persona, counts, toEmbed: writer.toEmbed };
  });
  // An index build grows the database's WASM heap; only a fresh worker gives it back (memories/import.ts).
  if (buildMb > DEFAULT_MAINTENANCE_MB) await ctx.db.restart();
  if (result.toEmbed) ctx.wakeJobs();
  onProgress?.({ stage: 'indexing', done: s.lines, total: s.lines });
  return { persona: await getPersona(ctx.db, result.id), counts: result.counts, toEmbed: result.toEmbed };
}
