// personas.import: a .hearth file becomes a new persona, all or nothing
// (docs/export.md). One pass reads the file as a stream, validates each line
// as it is read and writes it into a hidden persona in many short statements,
// so other calls are answered meanwhile and a bad line is refused when it is
// reached, not after the whole file was unpacked. Only when the last line is
// in (and gzip's CRC and length check out) does the persona appear; any bad
// line or a cancel removes it again, and a stop mid-import is cleaned up at
// the next start.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import type { Persona } from '../../shared/types';
import type { CoreContext } from '../context';
import type { PgliteDb, Queryable } from '../db/client';
import { DB_DIMENSIONS } from '../db/vector';
import { getPersona, slugify } from '../personas/store';
import { memoryOrigin } from '../schemas';
import { base64ToVector, FORMAT, FORMAT_VERSION, headerSchema, type Header, type RecordOf, recordSchema, vectorProblem } from './format';
import { copyBinary, type Field } from './copy-binary';
import { gzipLines, importCancelled, importError, type LineLimits } from './lines';
import { DEFAULT_PACE, Pacer } from '../db/pace';
import { removeImportingPersona } from './unfinished';

/** The most rows one insert takes; the pacer (pace.ts) usually keeps batches smaller. */
const MAX_ROWS = 1_000;
/**
 * A page of long lines (messages of megabytes) is sent once it holds this
 * much text, so memory holds a few pages' worth, not MAX_ROWS long lines.
 */
const MAX_PAGE_CHARS = 16 * 1024 * 1024;
/** An embeddings job covers this many rows (as enqueueEmbeddings does). */
const JOB_ROWS = 64;

export interface ImportProgress {
  /** 'indexing': the rows are in; their jobs are being queued and the persona made visible. */
  stage: 'checking' | 'writing' | 'indexing';
  done: number;
  total: number;
}

export interface ImportedPersona {
  persona: Persona;
  counts: Record<string, number>;
  /** Rows whose vectors were made by another model (or had none): queued for the backfill. */
  toEmbed: number;
  /**
   * Rows whose vector (current model) came with the file: queued to join the
   * vector index in the background; found by text until then.
   */
  toIndex: number;
}

/** How a caller bounds and stops an import: the line and size limits (lines.ts) and a signal that cancels it. */
export type ImportOptions = LineLimits;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A \uD800–\uDFFF escape: the only way a strictly decoded UTF-8 line can carry half a surrogate pair. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** True when a string (or key) inside a parsed record holds half a surrogate pair, which UTF-8 and Postgres cannot store. */
function loneSurrogate(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return LONE_SURROGATE.test(v);
  if (depth > 64 || v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some((x) => loneSurrogate(x, depth + 1));
  return Object.entries(v).some(([k, x]) => LONE_SURROGATE.test(k) || loneSurrogate(x, depth + 1));
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
  if (SURROGATE_ESCAPE.test(line) && loneSurrogate(raw)) {
    throw importError(`Line ${n} holds text that is not valid Unicode (half of a character pair, which cannot be stored): the file was edited or damaged. Nothing was imported.`);
  }
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

/** Blank lines after the end record are let through (an editor's extra newlines), up to this many. */
const MAX_BLANK_AFTER_END = 1_000;

/**
 * A vector the file holds but that cannot stand for its text (format.ts,
 * vectorProblem) is left out: the row is stored without it and embedded again
 * by the current model, as a row from another model is (docs/export.md).
 */
function usableVector<T extends { embedding: string | null; embeddingModel: string | null; embeddingError: string | null }>(
  r: T,
  model: string,
  modelDims: number,
): T {
  if (r.embedding === null) return r;
  const problem = vectorProblem(r.embedding, r.embeddingModel === model ? modelDims : DB_DIMENSIONS);
  return problem === null ? r : { ...r, embedding: null, embeddingModel: null, embeddingError: null };
}

/** The current model's vector size, or the column's while none can be asked (the core is closing). */
function currentDims(ctx: CoreContext): number {
  try {
    return ctx.embedder.current('no-persona').dimensions;
  } catch {
    return DB_DIMENSIONS;
  }
}

/** A persona id not taken (hidden imports included): the file's when free, else `<id>-2`… */
async function freeId(q: Queryable, wantedId: string, name: string): Promise<string> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM personas');
  const ids = new Set(rows.map((r) => r.id));
  let id = /^[a-z0-9][a-z0-9_-]{0,63}$/.test(wantedId) ? wantedId : slugify(name);
  const base = id.slice(0, 48);
  for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
  return id;
}

/** The file's name, or with " (2)", " (3)"… when a visible persona has it. */
async function freeName(q: Queryable, name: string): Promise<string> {
  const { rows } = await q.query<{ name: string }>('SELECT lower(name) AS name FROM personas WHERE NOT importing');
  const names = new Set(rows.map((r) => r.name));
  let finalName = name;
  for (let k = 2; names.has(finalName.toLowerCase()); k++) finalName = `${name} (${k})`;
  return finalName;
}

/**
 * Pads a staged vector (format.ts sends only the components the file holds)
 * to the database's dimensions with zeros, which leave cosine distance unchanged.
 */
const padded = (e: string) =>
  `CASE WHEN vector_dims(${e}) < ${DB_DIMENSIONS} THEN ${e} || array_fill(0::real, ARRAY[${DB_DIMENSIONS} - vector_dims(${e})])::vector ELSE ${e} END`;

/** A vector as the file gives it (format.ts: only its components) padded with zeros to the column's dimensions. */
function padVector(short: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + 4 * DB_DIMENSIONS);
  out.set(short);
  new DataView(out.buffer).setInt16(0, DB_DIMENSIONS);
  return out;
}

/** Ids from the file already used in this database: they get new ones (user-model entries, a few per persona). */
async function remapIds(q: Queryable, table: 'user_models', ids: string[], map: Map<string, string>): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[])`, [ids]);
  const taken = new Set(rows.map((r) => r.id));
  return ids.map((id) => {
    if (!taken.has(id)) return id;
    const fresh = randomUUID();
    map.set(id, fresh);
    return fresh;
  });
}

/**
 * A page of rows crosses to the database as one JSON parameter, unpacked by
 * json_to_recordset, plus one binary parameter per vector: a statement's cost
 * no longer grows with a dozen parameters a row, and its text is the same
 * every time (docs/export.md, "Where the time goes"). `n` is each row's place
 * in the page; vectors join on it.
 */
function vectorJoin(vectors: (Uint8Array | null)[], first: number): { sql: string; params: Uint8Array[]; value: string } {
  const rows: string[] = [];
  const params: Uint8Array[] = [];
  vectors.forEach((v, i) => {
    if (v === null) return;
    params.push(v);
    rows.push(`(${i}, $${first + params.length - 1}::vector)`);
  });
  // Without vectors the statement names no vector type or function (a server without pgvector has none).
  return rows.length
    ? { sql: `LEFT JOIN (VALUES ${rows.join(', ')}) AS v(n, e) ON v.n = r.n`, params, value: padded('v.e') }
    : { sql: '', params, value: 'NULL' };
}

/**
 * The row ids a page will use: the file's, unless the file held it earlier (a
 * damaged or edited file), which gets a fresh one here; the insert itself
 * replaces ids this database already holds (importing a copy next to its original).
 */
function fileIds(ids: string[], seen: Set<string>, map: Map<string, string>): string[] {
  return ids.map((id) => {
    if (!seen.has(id)) {
      seen.add(id);
      return id;
    }
    const fresh = randomUUID();
    map.set(id, fresh);
    seen.add(fresh);
    return fresh;
  });
}

const values = (rows: number, cols: number, casts: string[]) =>
  Array.from({ length: rows }, (_, r) => `(${casts.map((c, i) => `$${r * cols + i + 1}${c}`).join(', ')})`).join(', ');

/** Rows of one page whose id was taken in this database: their place in the page and the id they got. */
type Remapped = { n: number; id: string };

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
  toIndex = 0;
  /**
   * The statement of the page before: at most one of ours waits or runs at a
   * time, so another call waits for one statement at most, while the next page
   * is read, parsed and validated alongside it (docs/export.md).
   */
  private inflight: Promise<void> = Promise.resolve();
  /** The line being written (set by writeRecords), and where each buffered page began. */
  line = 0;
  /** The length of that line: a page is sent once its lines hold MAX_PAGE_CHARS, however few rows they are. */
  lineLength = 0;
  /** Characters of the lines in each buffer (keyed by the array, which each flush replaces with a new one). */
  private readonly pageChars = new WeakMap<unknown[], number>();
  private readonly from = { memories: 0, versions: 0, userModelVersions: 0, messages: 0, chunks: 0 };
  /** File ids met so far: a second row with one (an edited file) gets a fresh id. */
  private readonly seenMemories = new Set<string>();
  private readonly seenChunks = new Set<string>();
  /**
   * One pacer per kind of row: a memory with its vector costs far more than a
   * message, and a document chunk (long text for two text indexes) ~10× a memory,
   * so each starts small and grows to its own size (docs/export.md).
   */
  private readonly pace = {
    memories: new Pacer({ ...DEFAULT_PACE, min: 4, start: 16 }),
    versions: new Pacer({ ...DEFAULT_PACE, min: 4, start: 32 }),
    userModelVersions: new Pacer({ ...DEFAULT_PACE, min: 4, start: 32 }),
    messages: new Pacer({ ...DEFAULT_PACE, min: 4, start: 32 }),
    chunks: new Pacer({ ...DEFAULT_PACE, min: 1, start: 2 }),
    links: new Pacer({ ...DEFAULT_PACE, min: 4, start: 32 }),
  };

  constructor(
    private readonly q: Queryable,
    readonly persona: string,
    private readonly model: string,
    /** The persona's name in the file: it is given (or suffixed) when the persona appears. */
    readonly name: string,
    /**
     * The embedded database, whose COPY takes a page of memories or versions as
     * one binary blob (copy-binary.ts): about half the database's work of an
     * INSERT of the same rows (docs/export.md). null on a server: INSERTs there.
     */
    private readonly bulk: PgliteDb | null = null,
  ) {}

  /**
   * Sends one page's statement once the previous one is done (a failure of
   * that one stops the import here) and returns without waiting for it.
   * A refused row names the page's lines.
   */
  private async send(kind: keyof Writer['from'], fn: () => Promise<void>): Promise<void> {
    const [first, last] = [this.from[kind], this.line];
    await this.inflight;
    const run = fn().catch((e: unknown) => {
      if (e instanceof AppError) throw e;
      // A row the database refused (a duplicate dimension, a chunk index twice): name the lines.
      throw importError(`Line${first === last ? ` ${first}` : `s ${first}–${last}`} could not be stored: ${(e as Error).message}. Nothing was imported.`);
    });
    run.catch(() => undefined); // awaited by the next send or drain; never an unhandled rejection meanwhile
    this.inflight = run;
  }

  /** Waits for the last statement sent. */
  async drain(): Promise<void> {
    await this.inflight;
  }

  private push<T>(buffer: T[], kind: keyof Writer['from'], r: T): void {
    if (!buffer.length) this.from[kind] = this.line;
    buffer.push(r);
    this.pageChars.set(buffer, (this.pageChars.get(buffer) ?? 0) + this.lineLength);
  }

  private full(buffer: unknown[], pace: Pacer): boolean {
    return buffer.length >= Math.min(MAX_ROWS, pace.size) || (this.pageChars.get(buffer) ?? 0) >= MAX_PAGE_CHARS;
  }

  /** Counts what the rows will need once visible: re-embedding (no vector, another model) or only indexing. */
  private tally(r: { embedding: string | null; embeddingModel: string | null }): void {
    if (this.needsEmbedding(r)) this.toEmbed++;
    else this.toIndex++;
  }

  private needsEmbedding(r: { embedding: string | null; embeddingModel: string | null }): boolean {
    return !r.embedding || !this.hasVectors || r.embeddingModel !== this.model;
  }

  /** A server without pgvector stores no vectors (docs/server-mode.md): the rows come in without them. */
  private get hasVectors(): boolean {
    return this.q.features?.vector !== false;
  }

  private vec(b64: string | null): Uint8Array | null {
    return b64 === null || !this.hasVectors ? null : base64ToVector(b64, DB_DIMENSIONS);
  }

  async conversation(r: RecordOf<'conversation'>): Promise<void> {
    const { rows } = await this.q.query('SELECT 1 FROM conversations WHERE id = $1', [r.id]);
    const id = rows.length ? randomUUID() : r.id;
    this.conversations.set(r.id, id);
    await this.q.query(
      `INSERT INTO conversations (id, persona, title, summary, memory_snapshot, user_msgs_since_nudge, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz)`,
      [id, this.persona, r.title, r.summary, r.memorySnapshot, r.userMsgsSinceNudge, r.createdAt, r.updatedAt],
    );
  }

  async memory(r: RecordOf<'memory'>): Promise<void> {
    this.push(this.memories, 'memories', r);
    if (this.full(this.memories, this.pace.memories)) await this.flushMemories();
  }

  async flushMemories(): Promise<void> {
    if (this.bulk) return this.copyMemories(this.bulk);
    const batch = this.memories;
    if (!batch.length) return;
    this.memories = [];
    const ids = fileIds(batch.map((m) => m.id), this.seenMemories, this.memoryIds);
    const vectors = batch.map((m) => this.vec(m.embedding));
    const join = vectorJoin(vectors, 3);
    const rows = batch.map((m, n) => {
      this.tally(m);
      // A vector is staged: no tag yet, so it joins no HNSW graph now (migration 0017); its job tags it later.
      return {
        n, id: ids[n], category: m.category, content: m.content, importance: m.importance, day: m.day,
        embedding_model: vectors[n] === null ? m.embeddingModel : null, staged_model: vectors[n] === null ? null : m.embeddingModel,
        embedding_error: m.embeddingError, origin: m.origin,
        conversation_id: m.conversationId === null ? null : this.conversations.get(m.conversationId), inserted_at: m.insertedAt, updated_at: m.updatedAt,
      };
    });
    const json = JSON.stringify(rows);
    // Rows go in page order (seq follows it); an id this database already holds is replaced in the same statement.
    await this.send('memories', async () => {
      const { rows: remapped } = await this.pace.memories.time(batch.length, () =>
        this.q.query<Remapped>(
          `WITH r AS MATERIALIZED (
             SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM memories x WHERE x.id = r.id) THEN gen_random_uuid() ELSE r.id END AS new_id
             FROM json_to_recordset($2::json) AS r(n int, id uuid, category text, content text, importance int, day date, embedding_model text,
                                                   staged_model text, embedding_error text, origin text, conversation_id uuid,
                                                   inserted_at timestamptz, updated_at timestamptz)
           ), ins AS (
             INSERT INTO memories (id, persona, category, content, importance, day, embedding, embedding_model, staged_model, embedding_error, origin,
                                   conversation_id, inserted_at, updated_at)
             SELECT r.new_id, $1, r.category, r.content, r.importance, r.day, ${join.value}, r.embedding_model, r.staged_model, r.embedding_error,
                    r.origin, r.conversation_id, r.inserted_at, r.updated_at
             FROM r ${join.sql} ORDER BY r.n
           )
           SELECT n, new_id::text AS id FROM r WHERE new_id <> id`,
          [this.persona, json, ...join.params],
        ),
      );
      for (const { n, id } of remapped) {
        this.memoryIds.set(batch[n]!.id, id);
        ids[n] = id;
      }
      batch.forEach((m, i) => m.supersededBy && this.supersessions.push([ids[i]!, m.supersededBy, m.supersededAt]));
    });
  }

  /**
   * The bulk path: ids this database already holds are looked up first (a
   * copy imported next to its original) and replaced, then the page goes in
   * with one binary COPY, in file order (seq follows it). Vectors cross whole
   * (the column's type wants all 1,536 components), staged as in the INSERT.
   */
  private async copyMemories(bulk: PgliteDb): Promise<void> {
    const batch = this.memories;
    if (!batch.length) return;
    this.memories = [];
    const ids = fileIds(batch.map((m) => m.id), this.seenMemories, this.memoryIds);
    const vectors = batch.map((m) => (m.embedding === null ? null : padVector(base64ToVector(m.embedding, DB_DIMENSIONS))));
    const rows = batch.map((m, n): Field[] => {
      this.tally(m);
      const staged = vectors[n] !== null;
      return [
        { t: 'uuid', v: ids[n]! }, { t: 'text', v: this.persona }, { t: 'text', v: m.category }, { t: 'text', v: m.content },
        { t: 'int4', v: m.importance }, { t: 'date', v: m.day }, { t: 'bytes', v: vectors[n] ?? null },
        { t: 'text', v: staged ? null : m.embeddingModel }, { t: 'text', v: staged ? m.embeddingModel : null }, { t: 'text', v: m.embeddingError },
        { t: 'text', v: m.origin }, { t: 'uuid', v: m.conversationId === null ? null : this.conversations.get(m.conversationId)! },
        { t: 'timestamptz', v: m.insertedAt }, { t: 'timestamptz', v: m.updatedAt },
      ];
    });
    await this.send('memories', async () => {
      const { rows: taken } = await this.q.query<{ id: string }>('SELECT id::text AS id FROM memories WHERE id = ANY($1::uuid[])', [ids]);
      const held = new Set(taken.map((t) => t.id));
      ids.forEach((id, n) => {
        if (!held.has(id)) return;
        const fresh = randomUUID();
        this.memoryIds.set(batch[n]!.id, fresh);
        ids[n] = fresh;
        rows[n]![0] = { t: 'uuid', v: fresh };
      });
      const blob = copyBinary(rows);
      await this.pace.memories.time(batch.length, () =>
        bulk.copyFrom(
          `COPY memories (id, persona, category, content, importance, day, embedding, embedding_model, staged_model, embedding_error, origin,
                          conversation_id, inserted_at, updated_at) FROM '/dev/blob' WITH (FORMAT binary)`,
          blob,
        ),
      );
      batch.forEach((m, i) => m.supersededBy && this.supersessions.push([ids[i]!, m.supersededBy, m.supersededAt]));
    });
  }

  /**
   * Supersession links point at memories anywhere in the file, so they are set
   * after the last memory is in (the foreign key needs the newer row).
   */
  async linkSupersessions(line: number): Promise<void> {
    const links = this.supersessions;
    this.supersessions = [];
    for (let i = 0; i < links.length; ) {
      const batch = links.slice(i, i + Math.min(MAX_ROWS, this.pace.links.size));
      i += batch.length;
      const params: unknown[] = [];
      for (const [id, by, at] of batch) params.push(id, this.memoryIds.get(by) ?? by, at);
      const { affectedRows } = await this.pace.links.time(batch.length, () => this.q.query(
        `UPDATE memories m SET superseded_by = v.by, superseded_at = v.at
         FROM (VALUES ${values(batch.length, 3, ['::uuid', '::uuid', '::timestamptz'])}) AS v(id, by, at)
         WHERE m.id = v.id AND m.persona = $${batch.length * 3 + 1}
           AND EXISTS (SELECT 1 FROM memories n WHERE n.id = v.by AND n.persona = $${batch.length * 3 + 1})`,
        [...params, this.persona],
      ));
      if (affectedRows !== batch.length) {
        throw importError(`Before line ${line}: a memory is marked as replaced by a memory the file does not hold. Nothing was imported.`);
      }
    }
  }

  /** True when the file held a memory (or a deleted memory's history) with this id: links inside the file only. */
  holdsMemory(fileId: string): boolean {
    return this.seenMemories.has(fileId) || this.versionIds.has(fileId);
  }

  async memoryVersion(r: RecordOf<'memoryVersion'>): Promise<void> {
    this.push(this.versions, 'versions', r);
    if (this.full(this.versions, this.pace.versions)) await this.flushVersions();
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
    const rows: Record<string, unknown>[] = [];
    for (const [n, v] of batch.entries()) {
      rows.push({
        n, memory_id: await this.versionMemoryId(v.memoryId), version: v.version, change: v.change, content: v.content, category: v.category,
        importance: v.importance, day: v.day,
        superseded_by: v.supersededBy === null ? null : (this.memoryIds.get(v.supersededBy) ?? this.versionIds.get(v.supersededBy) ?? v.supersededBy),
        actor: v.actor, conversation_id: v.conversationId === null ? null : this.conversations.get(v.conversationId), reason: v.reason,
        valid_from: v.validFrom, valid_to: v.validTo,
      });
    }
    if (this.bulk) {
      const bulk = this.bulk;
      const blob = copyBinary(rows.map((r): Field[] => [
        { t: 'uuid', v: r.memory_id as string }, { t: 'text', v: this.persona }, { t: 'int4', v: r.version as number },
        { t: 'text', v: r.change as string }, { t: 'text', v: r.content as string }, { t: 'text', v: r.category as string | null },
        { t: 'int4', v: r.importance as number }, { t: 'date', v: r.day as string }, { t: 'uuid', v: r.superseded_by as string | null },
        { t: 'text', v: r.actor as string | null }, { t: 'uuid', v: (r.conversation_id ?? null) as string | null }, { t: 'text', v: r.reason as string | null },
        { t: 'timestamptz', v: r.valid_from as string }, { t: 'timestamptz', v: r.valid_to as string | null },
      ]));
      // Version ids are the database's own sequence: COPY numbers the rows in the file's order.
      await this.send('versions', async () => void await this.pace.versions.time(batch.length, () =>
        bulk.copyFrom(
          `COPY memory_versions (memory_id, persona, version, change, content, category, importance, day, superseded_by, actor,
                                 conversation_id, reason, valid_from, valid_to) FROM '/dev/blob' WITH (FORMAT binary)`,
          blob,
        ),
      ));
      return;
    }
    const json = JSON.stringify(rows);
    // Version ids are the database's own sequence: new here, in the file's order.
    await this.send('versions', async () => void await this.pace.versions.time(batch.length, () =>
        this.q.query(
          `INSERT INTO memory_versions (memory_id, persona, version, change, content, category, importance, day, superseded_by, actor,
                                        conversation_id, reason, valid_from, valid_to)
           SELECT r.memory_id, $1, r.version, r.change, r.content, r.category, r.importance, r.day, r.superseded_by, r.actor, r.conversation_id,
                  r.reason, r.valid_from, r.valid_to
           FROM json_to_recordset($2::json) AS r(n int, memory_id uuid, version int, change text, content text, category text, importance int, day date,
                                                 superseded_by uuid, actor text, conversation_id uuid, reason text, valid_from timestamptz,
                                                 valid_to timestamptz)
           ORDER BY r.n`,
          [this.persona, json],
        ),
    ));
  }

  async userModelVersion(r: RecordOf<'userModelVersion'>): Promise<void> {
    this.push(this.userModelVersions, 'userModelVersions', r);
    if (this.full(this.userModelVersions, this.pace.userModelVersions)) await this.flushUserModelVersions();
  }

  async flushUserModelVersions(): Promise<void> {
    const batch = this.userModelVersions;
    if (!batch.length) return;
    this.userModelVersions = [];
    const rows = batch.map((v, n) => ({
      n, dimension: v.dimension, version: v.version, change: v.change, content: v.content, confidence: v.confidence, actor: v.actor,
      conversation_id: v.conversationId === null ? null : this.conversations.get(v.conversationId), reason: v.reason,
      valid_from: v.validFrom, valid_to: v.validTo,
    }));
    const json = JSON.stringify(rows);
    await this.send('userModelVersions', async () => void await this.pace.userModelVersions.time(batch.length, () =>
        this.q.query(
          `INSERT INTO user_model_versions (persona, dimension, version, change, content, confidence, actor, conversation_id, reason, valid_from, valid_to)
           SELECT $1, r.dimension, r.version, r.change, r.content, r.confidence, r.actor, r.conversation_id, r.reason, r.valid_from, r.valid_to
           FROM json_to_recordset($2::json) AS r(n int, dimension text, version int, change text, content text, confidence int, actor text,
                                                 conversation_id uuid, reason text, valid_from timestamptz, valid_to timestamptz)
           ORDER BY r.n`,
          [this.persona, json],
        ),
    ));
  }

  async message(r: RecordOf<'message'>): Promise<void> {
    this.push(this.messages, 'messages', r);
    if (this.full(this.messages, this.pace.messages)) await this.flushMessages();
  }

  async flushMessages(): Promise<void> {
    const batch = this.messages;
    if (!batch.length) return;
    this.messages = [];
    const rows = batch.map((m, n) => ({
      n, conversation_id: this.conversations.get(m.conversationId), role: m.role, content: m.content,
      // jsonb columns: the value itself (JSON null is SQL NULL).
      tool_calls: m.toolCalls,
      tool_call_id: m.toolCallId,
      memory_ids: m.memoryIds === null ? null : m.memoryIds.map((id) => this.memoryIds.get(id) ?? this.versionIds.get(id) ?? id),
      folded: m.folded, created_at: m.createdAt,
    }));
    const json = JSON.stringify(rows);
    // Message ids are the database's own sequence: new here, in the file's order.
    await this.send('messages', async () => void await this.pace.messages.time(batch.length, () =>
        this.q.query(
          `INSERT INTO messages (conversation_id, role, content, tool_calls, tool_call_id, memory_ids, folded, created_at)
           SELECT r.conversation_id, r.role, r.content, r.tool_calls, r.tool_call_id, r.memory_ids, r.folded, r.created_at
           FROM json_to_recordset($1::json) AS r(n int, conversation_id uuid, role text, content text, tool_calls jsonb, tool_call_id text,
                                                 memory_ids jsonb, folded boolean, created_at timestamptz)
           ORDER BY r.n`,
          [json],
        ),
    ));
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
    this.push(this.chunks, 'chunks', r);
    if (this.full(this.chunks, this.pace.chunks)) await this.flushChunks();
  }

  async flushChunks(): Promise<void> {
    const batch = this.chunks;
    if (!batch.length) return;
    this.chunks = [];
    const ids = fileIds(batch.map((c) => c.id), this.seenChunks, this.chunkIds);
    const vectors = batch.map((c) => this.vec(c.embedding));
    const join = vectorJoin(vectors, 3);
    const rows = batch.map((c, n) => {
      this.tally(c);
      return {
        n, id: ids[n], source: c.source, chunk_index: c.chunkIndex, content: c.content, page_from: c.pageFrom, page_to: c.pageTo,
        embedding_model: vectors[n] === null ? c.embeddingModel : null, staged_model: vectors[n] === null ? null : c.embeddingModel,
        embedding_error: c.embeddingError, inserted_at: c.insertedAt,
      };
    });
    const json = JSON.stringify(rows);
    await this.send('chunks', async () => {
      const { rows: remapped } = await this.pace.chunks.time(batch.length, () =>
        this.q.query<Remapped>(
          `WITH r AS MATERIALIZED (
             SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM knowledge_chunks x WHERE x.id = r.id) THEN gen_random_uuid() ELSE r.id END AS new_id
             FROM json_to_recordset($2::json) AS r(n int, id uuid, source text, chunk_index int, content text, page_from int, page_to int,
                                                   embedding_model text, staged_model text, embedding_error text, inserted_at timestamptz)
           ), ins AS (
             INSERT INTO knowledge_chunks (id, persona, source, chunk_index, content, page_from, page_to, embedding, embedding_model, staged_model,
                                           embedding_error, inserted_at)
             SELECT r.new_id, $1, r.source, r.chunk_index, r.content, r.page_from, r.page_to, ${join.value}, r.embedding_model, r.staged_model,
                    r.embedding_error, r.inserted_at
             FROM r ${join.sql} ORDER BY r.n
           )
           SELECT n, new_id::text AS id FROM r WHERE new_id <> id`,
          [this.persona, json, ...join.params],
        ),
      );
      for (const { n, id } of remapped) this.chunkIds.set(batch[n]!.id, id);
    });
  }

  /**
   * One embeddings job per 64 rows lacking a current-model vector: a staged
   * one only joins its index, the rest are embedded (embeddings/work.ts).
   * A page of rows per statement, by key, in the order they were written.
   */
  async enqueueJobs(): Promise<void> {
    // Without pgvector nothing is embedded or indexed (as enqueueEmbeddings).
    if (!this.hasVectors) return;
    const pages = [
      { table: 'memories', target: 'memory', key: 'seq', after: (last: string) => [last], cmp: 'seq > $3::bigint', start: ['0'] },
      {
        table: 'knowledge_chunks', target: 'knowledge', key: 'source, chunk_index',
        after: (last: string) => JSON.parse(last) as unknown[], cmp: '(source, chunk_index) > ($3::text, $4::int)', start: ['', -1],
      },
    ] as const;
    for (const p of pages) {
      const pace = new Pacer({ targetMs: 40, min: JOB_ROWS, max: 64 * JOB_ROWS, start: 16 * JOB_ROWS });
      let after: readonly unknown[] = p.start;
      for (;;) {
        const size = Math.ceil(pace.size / JOB_ROWS) * JOB_ROWS;
        const at = 3 + after.length;
        const { rows } = await pace.time(size, () =>
          this.q.query<{ last: string | null; n: number }>(
            `WITH page AS (
               SELECT id, ${p.target === 'memory' ? 'seq::text' : 'json_build_array(source, chunk_index)::text'} AS k,
                      row_number() OVER (ORDER BY ${p.key}) AS n
               FROM (SELECT id, ${p.key} FROM ${p.table}
                     WHERE persona = $1 AND ${p.cmp} AND NOT (embedding IS NOT NULL AND embedding_model IS NOT DISTINCT FROM $2)
                     ORDER BY ${p.key} LIMIT $${at}) t
             ), jobs AS (
               INSERT INTO jobs (queue, persona, args)
               SELECT 'embeddings', $1, jsonb_build_object('target', $${at + 1}::text, 'ids', jsonb_agg(id::text ORDER BY n))
               FROM page GROUP BY (n - 1) / ${JOB_ROWS}
             )
             SELECT (SELECT k FROM page ORDER BY n DESC LIMIT 1) AS last, (SELECT count(*)::int FROM page) AS n`,
            [this.persona, this.model, ...after, size, p.target],
          ),
        );
        const r = rows[0];
        if (!r || r.last === null || r.n < size) break;
        after = p.after(r.last);
      }
    }
  }

  async flushAll(line: number): Promise<void> {
    await this.flushMemories();
    // Every memory is in (and its id known) before a link points at it.
    await this.drain();
    await this.linkSupersessions(line);
    await this.flushVersions();
    await this.flushUserModelVersions();
    await this.flushMessages();
    await this.flushChunks();
    await this.drain();
  }
}

/** The order records come in (docs/export.md); sources and their chunks interleave. */
const ORDER: Record<string, number> = {
  persona: 0, conversation: 1, memory: 2, memoryVersion: 3, message: 4, userModel: 5, userModelVersion: 6, knowledgeSource: 7, knowledgeChunk: 7,
};

/** Every line validated as it is read and written into the hidden persona. Returns the writer, the record counts and the lines read. */
async function writeRecords(
  ctx: CoreContext,
  path: string,
  total: number,
  hidden: (id: string) => void,
  onProgress?: (p: ImportProgress) => void,
  options: ImportOptions = {},
): Promise<{ w: Writer; counts: Record<string, number>; lines: number }> {
  const db = ctx.db;
  const model = ctx.embedder.model();
  const modelDims = currentDims(ctx);
  let w: Writer | null = null;
  const counts: Record<string, number> = {};
  let ended = false;
  let blankAfterEnd = 0;
  let section = 0;
  let last = 0;
  let lines = 0;
  for await (const [n, line, read] of gzipLines(path, options)) {
    lines = n;
    if (n === 1) {
      checkHeader(line);
      continue;
    }
    if (ended) {
      if (line.trim() || ++blankAfterEnd > MAX_BLANK_AFTER_END) {
        throw importError(`Line ${n} comes after the end record: the file was changed after export. Nothing was imported.`);
      }
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
    const at = ORDER[r.type]!;
    if (at < section) throw importError(`Line ${n}: a ${r.type} record out of place (the file was edited or damaged). Nothing was imported.`);
    if (at > section) {
      await w?.flushAll(n);
      section = at;
    }
    counts[r.type] = (counts[r.type] ?? 0) + 1;
    const persona = w;
    if (persona) {
      persona.line = n;
      persona.lineLength = line.length;
    }
    try {
      switch (r.type) {
        case 'persona': {
          // Hidden, under a placeholder name, until the last line is in (migration 0017).
          const id = await db.transaction(async (tx) => {
            const free = await freeId(tx, r.id, r.name);
            await tx.query('INSERT INTO personas (id, name, avatar, created_at, importing, local_only, mcp) VALUES ($1, $2, $3, $4::timestamptz, true, $5, $6)', [
              free,
              `importing ${randomUUID()}`,
              r.avatar ?? null,
              r.createdAt,
              r.localOnly ?? false,
              r.mcp ?? true,
            ]);
            return free;
          });
          hidden(id);
          w = new Writer(db, id, model, r.name, db.local);
          break;
        }
        case 'conversation':
          await persona!.conversation(r);
          break;
        case 'memory':
          if (r.conversationId !== null && !persona!.conversations.has(r.conversationId)) {
            throw importError(`Line ${n}: the memory names a conversation the file does not hold. Nothing was imported.`);
          }
          await persona!.memory(usableVector(r, model, modelDims));
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
          // A tool message's memories are the file's own: a link to another persona's memory would show it here.
          if (r.memoryIds?.some((id) => !persona!.holdsMemory(id))) {
            throw importError(`Line ${n}: the message links a memory the file does not hold. Nothing was imported.`);
          }
          await persona!.message(r);
          break;
        case 'userModel':
          await persona!.userModel(r);
          break;
        case 'knowledgeSource':
          await persona!.flushChunks();
          await persona!.drain();
          await persona!.source(r);
          break;
        case 'knowledgeChunk':
          if (!persona!.sources.has(r.source)) throw importError(`Line ${n}: a chunk of "${r.source}", a document the file does not list. Nothing was imported.`);
          await persona!.chunk(usableVector(r, model, modelDims));
          break;
      }
    } catch (e) {
      if (e instanceof AppError) throw e;
      // A row the database refused (a duplicate dimension, a chunk index twice): name the line we were at.
      throw importError(`Line ${n} could not be stored: ${(e as Error).message}. Nothing was imported.`);
    }
    const t = Date.now();
    if (onProgress && t - last > 200) {
      last = t;
      onProgress({ stage: 'writing', done: read, total });
    }
  }
  if (lines === 0) checkHeader(undefined);
  if (!w) throw importError('The file holds a header but no persona. Nothing was imported.');
  if (!ended) throw importError(`The file ends at line ${lines} without its end record: it was cut short. Nothing was imported.`);
  return { w, counts: Object.fromEntries(Object.entries(counts).sort()), lines };
}

/** A persona written from a file but still hidden (personas.importing): nobody sees it until it is revealed. */
export interface HiddenImport {
  id: string;
  /** The name the file gives it; the free name is chosen when it is revealed. */
  name: string;
  counts: Record<string, number>;
  toEmbed: number;
  toIndex: number;
  lines: number;
}

/**
 * Writes the .hearth file at `path` as a hidden persona and leaves it hidden:
 * the caller reveals it (importPersonaFile at once; a copy to a server only
 * when every persona is in, so a copy cut off never shows half of itself).
 * When anything fails, what was written is removed.
 */
export async function importHidden(
  ctx: CoreContext,
  path: string,
  onProgress?: (p: ImportProgress) => void,
  options: ImportOptions = {},
): Promise<HiddenImport> {
  // Progress is the compressed file read so far: the number of lines is known only at the end.
  const total = await stat(path).then((st) => st.size, () => 1);
  onProgress?.({ stage: 'checking', done: 0, total });
  let id: string | null = null;
  try {
    const { w, counts, lines } = await writeRecords(ctx, path, total, (hiddenId) => (id = hiddenId), onProgress, options);
    onProgress?.({ stage: 'indexing', done: total, total });
    if (options.signal?.aborted) throw importCancelled();
    await w.enqueueJobs();
    return { id: w.persona, name: w.name, counts, toEmbed: w.toEmbed, toIndex: w.toIndex, lines };
  } catch (e) {
    // Nothing half-imported: the hidden persona goes (if this fails too, the next start removes it).
    if (id) await removeImportingPersona(ctx.db, id).catch(() => undefined);
    throw e;
  }
}

/**
 * Imports the .hearth file at `path` as a new persona. It appears only once
 * every line is valid and stored and the file ended with its `end` record;
 * otherwise what was written is removed and nothing is visible at any time.
 * Other calls are answered while it runs: each statement is short.
 */
export async function importPersonaFile(
  ctx: CoreContext,
  path: string,
  onProgress?: (p: ImportProgress) => void,
  options: ImportOptions = {},
): Promise<ImportedPersona> {
  const h = await importHidden(ctx, path, onProgress, options);
  try {
    if (options.signal?.aborted) throw importCancelled();
    // One short transaction: the name is chosen now (a persona created meanwhile may have taken it) and the persona appears.
    await ctx.db.transaction(async (tx) => {
      await tx.query('UPDATE personas SET name = $2, importing = false WHERE id = $1', [h.id, await freeName(tx, h.name)]);
    });
  } catch (e) {
    await removeImportingPersona(ctx.db, h.id).catch(() => undefined);
    throw e;
  }
  if (h.toEmbed || h.toIndex) ctx.wakeJobs();
  onProgress?.({ stage: 'indexing', done: h.lines, total: h.lines });
  return { persona: await getPersona(ctx.db, h.id), counts: h.counts, toEmbed: h.toEmbed, toIndex: h.toIndex };
}
