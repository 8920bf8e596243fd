// personas.import: a .hearth file becomes a new persona, all or nothing
// (docs/export.md). One pass reads the file as a stream, validates each line
// as it is read and writes it into a hidden persona in many short statements,
// so other calls are answered meanwhile and a bad line is refused when it is
// reached, not after the whole file was unpacked. Only when the last line is
// in (and gzip's CRC and length check out) does the persona appear; any bad
// line or a cancel removes it again, and a stop mid-import is cleaned up at
// the next start. Each table's rows go through its own store (writer.ts).
import { stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import type { Persona } from '../../shared/types';
import type { CoreContext } from '../context';
import { EventLoopTurns } from '../db/pace';
import { personaWithCounts } from '../personas/store';
import { insertHiddenPersona, revealPersona } from '../personas/transfer';
import type { HearthRecord, RecordOf } from './format';
import { gzipLines, importCancelled, importError, type LineLimits } from './lines';
import { checkHeader, currentDims, parseRecord, usableVector } from './records';
import { removeImportingPersona } from './unfinished';
import { Writer } from './writer';

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

/** Blank lines after the end record are let through (an editor's extra newlines), up to this many. */
const MAX_BLANK_AFTER_END = 1_000;

/** The order records come in (docs/export.md); sources and their chunks interleave. */
const ORDER: Record<string, number> = {
  persona: 0, conversation: 1, memory: 2, memoryVersion: 3, message: 4, userModel: 5, userModelVersion: 6, knowledgeSource: 7, knowledgeChunk: 7,
};

/** Where a read of the file stands: what was written, counted and reached so far. */
interface Reading {
  w: Writer | null;
  counts: Record<string, number>;
  ended: boolean;
  blankAfterEnd: number;
  /** The place (ORDER) of the records being read: one out of place is refused. */
  section: number;
}

/** A line after the end record: blank ones (an editor's) are let through, anything else is refused. */
function afterEnd(s: Reading, n: number, line: string): void {
  if (line.trim() || ++s.blankAfterEnd > MAX_BLANK_AFTER_END) {
    throw importError(`Line ${n} comes after the end record: the file was changed after export. Nothing was imported.`);
  }
}

/** The end record: everything is sent and waited for, and the file's counts must be those read. */
async function endRecord(s: Reading, r: RecordOf<'end'>, n: number): Promise<void> {
  await s.w?.flushAll(n);
  for (const [type, count] of Object.entries(r.counts)) {
    if ((s.counts[type] ?? 0) !== count) {
      throw importError(`The file says it holds ${count} ${type} records but ${s.counts[type] ?? 0} were read: it is damaged. Nothing was imported.`);
    }
  }
  s.ended = true;
}

/** Refuses a record out of its place; at a new section, sends what the last one buffered. */
async function enterSection(s: Reading, r: Exclude<HearthRecord, { type: 'end' }>, n: number): Promise<void> {
  if (n === 2 && r.type !== 'persona') throw importError('Line 2 must describe the persona: the file is damaged. Nothing was imported.');
  if (r.type === 'persona' && n !== 2) throw importError(`Line ${n} describes a second persona: a .hearth file holds one. Nothing was imported.`);
  const at = ORDER[r.type]!;
  if (at < s.section) throw importError(`Line ${n}: a ${r.type} record out of place (the file was edited or damaged). Nothing was imported.`);
  if (at > s.section) {
    await s.w?.flushAll(n);
    s.section = at;
  }
}

/** Refuses a record that points outside the file: a conversation, memory or document it does not hold. */
function checkLinks(w: Writer, r: Exclude<HearthRecord, { type: 'end' | 'persona' }>, n: number): void {
  const what = { memory: 'the memory names', memoryVersion: 'the memory version names', userModelVersion: 'the user-model version names' } as const;
  if ((r.type === 'memory' || r.type === 'memoryVersion' || r.type === 'userModelVersion') && r.conversationId !== null && !w.conversations.has(r.conversationId)) {
    throw importError(`Line ${n}: ${what[r.type]} a conversation the file does not hold. Nothing was imported.`);
  }
  if (r.type === 'message') {
    if (!w.conversations.has(r.conversationId)) {
      throw importError(`Line ${n}: the message belongs to a conversation the file does not hold. Nothing was imported.`);
    }
    // A tool message's memories are the file's own: a link to another persona's memory would show it here.
    if (r.memoryIds?.some((id) => !w.holdsMemory(id))) throw importError(`Line ${n}: the message links a memory the file does not hold. Nothing was imported.`);
  }
  if (r.type === 'knowledgeChunk' && !w.sources.has(r.source)) {
    throw importError(`Line ${n}: a chunk of "${r.source}", a document the file does not list. Nothing was imported.`);
  }
}

/** Hands one record to the writer, which buffers it for its table's store. */
async function writeRecord(w: Writer, r: Exclude<HearthRecord, { type: 'end' | 'persona' }>, model: string, modelDims: number): Promise<void> {
  switch (r.type) {
    case 'conversation': return w.conversation(r);
    case 'memory': return w.memory(usableVector(r, model, modelDims));
    case 'memoryVersion': return w.memoryVersion(r);
    case 'userModelVersion': return w.userModelVersion(r);
    case 'message': return w.message(r);
    case 'userModel': return w.userModel(r);
    case 'knowledgeSource':
      await w.flushChunks();
      await w.drain();
      return w.source(r);
    case 'knowledgeChunk': return w.chunk(usableVector(r, model, modelDims));
  }
}

/**
 * Stores one record: the persona line makes the hidden persona and its
 * writer; any other goes to the writer once its links are checked.
 */
async function storeRecord(
  ctx: CoreContext,
  s: Reading,
  r: Exclude<HearthRecord, { type: 'end' }>,
  n: number,
  hidden: (id: string) => void,
  model: string,
  modelDims: number,
): Promise<void> {
  try {
    if (r.type === 'persona') {
      // Hidden, under a placeholder name, until the last line is in (migration 0017).
      const id = await insertHiddenPersona(ctx.db, r);
      hidden(id);
      s.w = new Writer(ctx.db, id, model, r.name, ctx.db.local);
      return;
    }
    checkLinks(s.w!, r, n);
    await writeRecord(s.w!, r, model, modelDims);
  } catch (e) {
    if (e instanceof AppError) throw e;
    // A row the database refused (a duplicate dimension, a chunk index twice): name the line we were at.
    throw importError(`Line ${n} could not be stored: ${(e as Error).message}. Nothing was imported.`);
  }
}

/** Every line validated as it is read and written into the hidden persona. Returns the writer, the record counts and the lines read. */
async function writeRecords(
  ctx: CoreContext,
  path: string,
  total: number,
  hidden: (id: string) => void,
  onProgress?: (p: ImportProgress) => void,
  options: ImportOptions = {},
): Promise<{ w: Writer; counts: Record<string, number>; lines: number }> {
  const model = ctx.embedder.model();
  const modelDims = currentDims(ctx);
  const s: Reading = { w: null, counts: {}, ended: false, blankAfterEnd: 0, section: 0 };
  let last = 0;
  let lines = 0;
  const turn = new EventLoopTurns();
  for await (const [n, line, read] of gzipLines(path, options)) {
    await turn.maybe();
    lines = n;
    if (n === 1) {
      checkHeader(line);
      continue;
    }
    if (s.ended) {
      afterEnd(s, n, line);
      continue;
    }
    const r = parseRecord(line, n);
    if (r.type === 'end') {
      await endRecord(s, r, n);
      continue;
    }
    await enterSection(s, r, n);
    s.counts[r.type] = (s.counts[r.type] ?? 0) + 1;
    if (s.w) {
      s.w.line = n;
      s.w.lineLength = line.length;
    }
    await storeRecord(ctx, s, r, n, hidden, model, modelDims);
    const t = Date.now();
    if (onProgress && t - last > 200) {
      last = t;
      onProgress({ stage: 'writing', done: read, total });
    }
  }
  if (lines === 0) checkHeader(undefined);
  if (!s.w) throw importError('The file holds a header but no persona. Nothing was imported.');
  if (!s.ended) throw importError(`The file ends at line ${lines} without its end record: it was cut short. Nothing was imported.`);
  return { w: s.w, counts: Object.fromEntries(Object.entries(s.counts).sort()), lines };
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
    await revealPersona(ctx.db, h.id, h.name);
  } catch (e) {
    await removeImportingPersona(ctx.db, h.id).catch(() => undefined);
    throw e;
  }
  if (h.toEmbed || h.toIndex) ctx.wakeJobs();
  onProgress?.({ stage: 'indexing', done: h.lines, total: h.lines });
  // The counts are the rows just written: counting them again would read every row in one statement (docs/export.md).
  const c = h.counts;
  const counts = {
    memories: c.memory ?? 0, userModel: c.userModel ?? 0, knowledgeSources: c.knowledgeSource ?? 0, knowledgeChunks: c.knowledgeChunk ?? 0, messages: c.message ?? 0,
  };
  return { persona: await personaWithCounts(ctx.db, h.id, counts), counts: h.counts, toEmbed: h.toEmbed, toIndex: h.toIndex };
}
