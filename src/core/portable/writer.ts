// Writes a .hearth file's records into a hidden persona (docs/export.md,
// "Import"): records are buffered into pages sized by time (pace.ts) and each
// page goes to the store that owns its table; this file holds the file's
// rules (ids the file names, links inside the file), not the tables' SQL.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { insertMessagePage } from '../chat/transfer';
import { insertImportedConversation } from '../conversations/transfer';
import type { PgliteDb, Queryable } from '../db/client';
import { DB_DIMENSIONS } from '../db/vector';
import { enqueueImportedPage, firstKey, JOB_ROWS, nextKey } from '../embeddings/imported';
import { copyMemoryVersionPage, insertMemoryVersionPage, insertUserModelVersionPage, memoryIdElsewhere, type MemoryVersionRow } from '../history/transfer';
import { insertChunkPage, insertImportedSource } from '../knowledge/transfer';
import { copyMemoryPage, insertMemoryPage, linkImportedSupersessions } from '../memories/transfer';
import { insertImportedUserModel } from '../user-model/transfer';
import { base64ToVector, type RecordOf } from './format';
import { importError } from './lines';
import { DEFAULT_PACE, Pacer } from '../db/pace';

/** The most rows one insert takes; the pacer (pace.ts) usually keeps batches smaller. */
const MAX_ROWS = 1_000;
/**
 * A page of long lines (messages of megabytes) is sent once it holds this
 * much text, so memory holds a few pages' worth, not MAX_ROWS long lines.
 */
const MAX_PAGE_CHARS = 16 * 1024 * 1024;

/**
 * The row ids a page will use: the file's, unless the file held it earlier (a
 * damaged or edited file), which gets a fresh one here; the store replaces
 * ids this database already holds (importing a copy next to its original).
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

type Kind = 'memories' | 'versions' | 'userModelVersions' | 'messages' | 'chunks';

export class Writer {
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
  /** The line being written (set by the reader), and where each buffered page began. */
  line = 0;
  /** The length of that line: a page is sent once its lines hold MAX_PAGE_CHARS, however few rows they are. */
  lineLength = 0;
  /** Characters of the lines in each buffer (keyed by the array, which each flush replaces with a new one). */
  private readonly pageChars = new WeakMap<unknown[], number>();
  private readonly from: Record<Kind, number> = { memories: 0, versions: 0, userModelVersions: 0, messages: 0, chunks: 0 };
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
     * one binary blob (db/copy-binary.ts): about half the database's work of an
     * INSERT of the same rows (docs/export.md). null on a server: INSERTs there.
     */
    private readonly bulk: PgliteDb | null = null,
  ) {}

  /**
   * Sends one page's statement once the previous one is done (a failure of
   * that one stops the import here) and returns without waiting for it.
   * A refused row names the page's lines.
   */
  private async send(kind: Kind, fn: () => Promise<unknown>): Promise<void> {
    const [first, last] = [this.from[kind], this.line];
    await this.inflight;
    const run = fn().then(() => undefined).catch((e: unknown) => {
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

  /** Buffers a record; true when its page is full and should be sent. */
  private push<T>(buffer: T[], kind: Kind, r: T, pace: Pacer): boolean {
    if (!buffer.length) this.from[kind] = this.line;
    buffer.push(r);
    const chars = (this.pageChars.get(buffer) ?? 0) + this.lineLength;
    this.pageChars.set(buffer, chars);
    return buffer.length >= Math.min(MAX_ROWS, pace.size) || chars >= MAX_PAGE_CHARS;
  }

  /** Counts what the rows will need once visible: re-embedding (no vector, another model) or only indexing. */
  private tally(r: { embedding: string | null; embeddingModel: string | null }): void {
    if (!r.embedding || !this.hasVectors || r.embeddingModel !== this.model) this.toEmbed++;
    else this.toIndex++;
  }

  /** A server without pgvector stores no vectors (docs/server-mode.md): the rows come in without them. */
  private get hasVectors(): boolean {
    return this.q.features?.vector !== false;
  }

  private vec(b64: string | null): Uint8Array | null {
    return b64 === null || !this.hasVectors ? null : base64ToVector(b64, DB_DIMENSIONS);
  }

  /** A conversation the file names, as the id it has here. */
  private conv(fileId: string | null): string | null {
    return fileId === null ? null : (this.conversations.get(fileId) ?? null);
  }

  /** A memory the file names (by a version, a link or a message), as the id it has here. */
  private memoryId(fileId: string): string {
    return this.memoryIds.get(fileId) ?? this.versionIds.get(fileId) ?? fileId;
  }

  async conversation(r: RecordOf<'conversation'>): Promise<void> {
    this.conversations.set(r.id, await insertImportedConversation(this.q, this.persona, r));
  }

  async memory(r: RecordOf<'memory'>): Promise<void> {
    if (this.push(this.memories, 'memories', r, this.pace.memories)) await this.flushMemories();
  }

  /** Sends the buffered memories; the embedded database takes them by COPY, a server by INSERT. */
  async flushMemories(): Promise<void> {
    const batch = this.memories;
    if (!batch.length) return;
    this.memories = [];
    const ids = fileIds(batch.map((m) => m.id), this.seenMemories, this.memoryIds);
    const bulk = this.bulk;
    const vectors = batch.map((m) => (bulk ? (m.embedding === null ? null : base64ToVector(m.embedding, DB_DIMENSIONS)) : this.vec(m.embedding)));
    const page = batch.map((m, n) => {
      this.tally(m);
      return { ...m, id: ids[n]!, conversationId: this.conv(m.conversationId) };
    });
    // The page is made now, while the statement before it runs; it is sent once that one is done.
    const copy = bulk ? copyMemoryPage(this.persona, page, vectors) : null;
    const insert = bulk ? null : insertMemoryPage(this.persona, page, vectors);
    const run = () => (copy ? copy(bulk!) : insert!(this.q));
    await this.send('memories', async () => {
      const { remapped } = await this.pace.memories.time(batch.length, run);
      for (const { n, id } of remapped) {
        this.memoryIds.set(batch[n]!.id, id);
        ids[n] = id;
      }
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
      const here = batch.map(([id, by, at]): [string, string, string | null] => [id, this.memoryIds.get(by) ?? by, at]);
      const { linked } = await this.pace.links.time(batch.length, () => linkImportedSupersessions(this.q, this.persona, here));
      if (linked !== batch.length) {
        throw importError(`Before line ${line}: a memory is marked as replaced by a memory the file does not hold. Nothing was imported.`);
      }
    }
  }

  /** True when the file held a memory (or a deleted memory's history) with this id: links inside the file only. */
  holdsMemory(fileId: string): boolean {
    return this.seenMemories.has(fileId) || this.versionIds.has(fileId);
  }

  async memoryVersion(r: RecordOf<'memoryVersion'>): Promise<void> {
    if (this.push(this.versions, 'versions', r, this.pace.versions)) await this.flushVersions();
  }

  /** A version's memory id: the memory's id here, or (for a deleted memory) a fresh one if the file's is taken. */
  private async versionMemoryId(fileId: string): Promise<string> {
    const known = this.memoryIds.get(fileId) ?? this.versionIds.get(fileId);
    if (known) return known;
    const id = (await memoryIdElsewhere(this.q, fileId, this.persona)) ? randomUUID() : fileId;
    this.versionIds.set(fileId, id);
    return id;
  }

  /** Sends the buffered memory versions; their ids are the database's own sequence, in the file's order. */
  async flushVersions(): Promise<void> {
    const batch = this.versions;
    if (!batch.length) return;
    this.versions = [];
    const page: MemoryVersionRow[] = [];
    for (const v of batch) {
      page.push({
        ...v, memoryId: await this.versionMemoryId(v.memoryId),
        supersededBy: v.supersededBy === null ? null : this.memoryId(v.supersededBy), conversationId: this.conv(v.conversationId),
      });
    }
    const bulk = this.bulk;
    const copy = bulk ? copyMemoryVersionPage(this.persona, page) : null;
    const insert = bulk ? null : insertMemoryVersionPage(this.persona, page);
    await this.send('versions', () => this.pace.versions.time(batch.length, () => (copy ? copy(bulk!) : insert!(this.q))));
  }

  async userModelVersion(r: RecordOf<'userModelVersion'>): Promise<void> {
    if (this.push(this.userModelVersions, 'userModelVersions', r, this.pace.userModelVersions)) await this.flushUserModelVersions();
  }

  async flushUserModelVersions(): Promise<void> {
    const batch = this.userModelVersions;
    if (!batch.length) return;
    this.userModelVersions = [];
    const page = batch.map((v) => ({ ...v, conversationId: this.conv(v.conversationId) }));
    const insert = insertUserModelVersionPage(this.persona, page);
    await this.send('userModelVersions', () => this.pace.userModelVersions.time(batch.length, () => insert(this.q)));
  }

  async message(r: RecordOf<'message'>): Promise<void> {
    if (this.push(this.messages, 'messages', r, this.pace.messages)) await this.flushMessages();
  }

  /** Sends the buffered messages; their ids are the database's own sequence, in the file's order. */
  async flushMessages(): Promise<void> {
    const batch = this.messages;
    if (!batch.length) return;
    this.messages = [];
    const page = batch.map((m) => ({
      ...m, conversationId: this.conversations.get(m.conversationId)!, memoryIds: m.memoryIds === null ? null : m.memoryIds.map((id) => this.memoryId(id)),
    }));
    const insert = insertMessagePage(page);
    await this.send('messages', () => this.pace.messages.time(batch.length, () => insert(this.q)));
  }

  async userModel(r: RecordOf<'userModel'>): Promise<void> {
    const id = await insertImportedUserModel(this.q, this.persona, r);
    if (id !== r.id) this.userModelIds.set(r.id, id);
  }

  async source(r: RecordOf<'knowledgeSource'>): Promise<void> {
    this.sources.add(r.source);
    await insertImportedSource(this.q, this.persona, r);
  }

  async chunk(r: RecordOf<'knowledgeChunk'>): Promise<void> {
    if (this.push(this.chunks, 'chunks', r, this.pace.chunks)) await this.flushChunks();
  }

  async flushChunks(): Promise<void> {
    const batch = this.chunks;
    if (!batch.length) return;
    this.chunks = [];
    const ids = fileIds(batch.map((c) => c.id), this.seenChunks, this.chunkIds);
    const vectors = batch.map((c) => this.vec(c.embedding));
    const page = batch.map((c, n) => {
      this.tally(c);
      return { ...c, id: ids[n]! };
    });
    const insert = insertChunkPage(this.persona, page, vectors);
    await this.send('chunks', async () => {
      const { remapped } = await this.pace.chunks.time(batch.length, () => insert(this.q));
      for (const { n, id } of remapped) this.chunkIds.set(batch[n]!.id, id);
    });
  }

  /**
   * One embeddings job per 64 rows lacking a current-model vector
   * (embeddings/imported.ts): a page of rows per statement, by key, in the
   * order they were written.
   */
  async enqueueJobs(): Promise<void> {
    // Without pgvector nothing is embedded or indexed (as enqueueEmbeddings).
    if (!this.hasVectors) return;
    for (const target of ['memory', 'knowledge'] as const) {
      // A page of 1,024 rows as the first held the database ~0.2 s at 50k, and pages grown to 3,000 rows ~0.4 s:
      // start small and stay at most 1,024 rows.
      const pace = new Pacer({ targetMs: 40, min: JOB_ROWS, max: 16 * JOB_ROWS, start: 2 * JOB_ROWS });
      let after = firstKey(target);
      for (;;) {
        const size = Math.ceil(pace.size / JOB_ROWS) * JOB_ROWS;
        const r = await pace.time(size, () => enqueueImportedPage(this.q, this.persona, this.model, target, after, size));
        if (r.last === null || r.n < size) break;
        after = nextKey(target, r.last);
      }
    }
  }

  /** Sends every buffered page, memories and their links first, and waits for them. */
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
