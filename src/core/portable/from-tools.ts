// memories.importFrom: memories from other assistants' exports (docs/export.md).
// Each reader turns its input into items {content, day, category}; the same
// path then drops duplicates of what the persona already holds and writes the
// rest as memories with origin `import`.
import { AppError } from '../../shared/errors';
import type { ImportFormat, ImportFromItem, ImportFromResult } from '../../shared/types';
import type { CoreContext } from '../context';
import { importMemories } from '../memories/import';
import { findNearDuplicate } from '../memories/duplicates';
import { MAX_MEMORY_CHARS } from '../memories/handlers';
import { forEachMemoryContent } from '../memories/transfer';
import { personaPrivacy, requirePersona } from '../personas/store';
import { localDay } from '../time';
import { calendarDay } from './format';
import { importError } from './lines';

export interface Item {
  content: string;
  day: string;
  category: string | null;
  /** Where the source gives one (mem0's `importance`, in its metadata or not); else the default. */
  importance?: number;
}

const MAX_ITEMS = 50_000;
const PREVIEW_ITEMS = 1_000;
const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})\s*(?::|–|—|-)\s+/;
const BULLET = /^\s*(?:[-*+•]|\d{1,4}[.)])\s+/;

/** Same text for duplicate purposes: Unicode-normalised, case-folded, whitespace and closing punctuation ignored. */
export function normaliseText(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!;。]+$/u, '').trim();
}

/** A day the calendar has, years 0001–9999 (format.ts): Postgres stores no year 0. */
const realDay = calendarDay;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A leading "2025-03-04:" becomes the item's day; one the calendar does not have is refused, naming the item. */
function withDay(text: string, today: string, item: number): Item {
  const m = DATE_PREFIX.exec(text);
  if (m && !realDay(m[1]!)) throw importError(`Item ${item} begins with ${m[1]}, a day the calendar does not have. Nothing was imported.`);
  if (m) return { content: text.slice(m[0].length).trim(), day: m[1]!, category: null };
  return { content: text.trim(), day: today, category: null };
}

/**
 * A Markdown or plain-text list: one memory per bullet (continuation lines
 * joined), or, when there are no bullets, one per paragraph. Headings and
 * horizontal rules are not memories.
 */
export function readTextList(text: string, today: string): Item[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const skip = (l: string) => /^\s*#{1,6}\s/.test(l) || /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(l);
  const hasBullets = lines.some((l) => !skip(l) && BULLET.test(l));
  const blocks: string[] = [];
  let cur: string[] = [];
  const flush = () => {
    if (cur.length) blocks.push(cur.join(' '));
    cur = [];
  };
  for (const l of lines) {
    if (skip(l)) {
      flush();
      continue;
    }
    if (!l.trim()) {
      flush();
      continue;
    }
    if (hasBullets && BULLET.test(l)) {
      flush();
      cur.push(l.replace(BULLET, '').trim());
    } else if (hasBullets && !cur.length) {
      blocks.push(l.trim()); // a line outside any bullet (an intro sentence) stands alone
    } else cur.push(l.trim());
  }
  flush();
  return blocks.map((b, i) => withDay(b, today, i + 1)).filter((i) => i.content);
}

/** ChatGPT's saved memories as copied from its settings: one per line (bullets, if any, dropped). */
export function readChatGpt(text: string, today: string): Item[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(BULLET, '').trim())
    .filter((l) => l && !/^#{1,6}\s/.test(l))
    .map((l, i) => withDay(l, today, i + 1));
}

/**
 * The day a source dates an item: a timestamp's own calendar day as written (mem0 writes
 * "2024-07-20T23:09:37-07:00": the person's evening of the 20th, not UTC's 21st), epoch
 * seconds or milliseconds as a local day; no date at all, today. A date that is written
 * but does not exist (2025-02-30, year 0) is refused, naming the item: JavaScript's
 * Date would move it to another day without a word.
 */
function dayOf(v: unknown, today: string, item: number): string {
  const impossible = () => importError(`Item ${item} of the mem0 export is dated ${JSON.stringify(v)}, a day the calendar does not have. Nothing was imported.`);
  if (v === undefined || v === null || v === '') return today;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) {
    const d = new Date(v < 1e12 ? v * 1000 : v);
    const day = Number.isNaN(d.getTime()) ? null : localDay(d);
    if (day === null || !realDay(day)) throw impossible();
    return day;
  }
  if (typeof v !== 'string') return today;
  const written = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(v.trim());
  if (written) {
    if (!realDay(written[1]!)) throw impossible();
    return written[1]!;
  }
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return today;
  const day = localDay(d);
  if (!realDay(day)) throw impossible();
  return day;
}

function firstString(...vs: unknown[]): string | null {
  for (const v of vs) {
    if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 64);
    if (Array.isArray(v)) {
      const s = v.find((x): x is string => typeof x === 'string' && x.trim() !== '');
      if (s) return s.trim().slice(0, 64);
    }
  }
  return null;
}

/** An importance on Hearth's 1–10 scale: a whole 1–10 as is, a share of 1 (0.8) scaled; anything else none. */
function importanceOf(...vs: unknown[]): number | undefined {
  for (const raw of vs) {
    const v = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    if (v > 0 && v <= 1 && !Number.isInteger(v)) return Math.max(1, Math.round(v * 10));
    if (v >= 1 && v <= 10) return Math.round(v);
  }
  return undefined;
}

/**
 * mem0's memory listing as its clients return it (`get_all`, the platform's
 * export): an array of `{id, memory, created_at, categories?, category?, metadata?}`,
 * bare or under `results` / `memories`. What the source knows is kept: the category
 * (mem0's `categories`, a `category`, or one in `metadata`), the day it was created,
 * and an importance where the item or its metadata has one.
 */
export function readMem0(json: string, today: string): Item[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    throw importError(`This is not mem0's export: it is not JSON (${(e as Error).message}).`);
  }
  const obj = data as Record<string, unknown>;
  const list = Array.isArray(data) ? data : Array.isArray(obj?.results) ? obj.results : Array.isArray(obj?.memories) ? obj.memories : null;
  if (!list) throw importError('This is not mem0\'s export: expected a list of memories (or {"results": [...]}).');
  return list.map((raw, i) => {
    const m = (raw ?? {}) as Record<string, unknown>;
    const content = [m.memory, m.text, m.content].find((v) => typeof v === 'string');
    if (typeof content !== 'string' || !content.trim()) throw importError(`Item ${i + 1} of the mem0 export has no "memory" text.`);
    const meta = (m.metadata && typeof m.metadata === 'object' && !Array.isArray(m.metadata) ? m.metadata : {}) as Record<string, unknown>;
    const importance = importanceOf(m.importance, meta.importance, meta.priority);
    return {
      content: content.trim(),
      day: dayOf(m.created_at ?? m.createdAt ?? meta.created_at ?? meta.date, today, i + 1),
      category: firstString(m.categories, m.category, meta.categories, meta.category),
      ...(importance === undefined ? {} : { importance }),
    };
  });
}

export function readItems(format: ImportFormat, text: string, today: string): Item[] {
  switch (format) {
    case 'text':
      return readTextList(text, today);
    case 'chatgpt':
      return readChatGpt(text, today);
    case 'mem0':
      return readMem0(text, today);
  }
}

/** Normalised texts of every memory the persona holds. */
async function existingTexts(ctx: CoreContext, persona: string): Promise<Set<string>> {
  const seen = new Set<string>();
  await forEachMemoryContent(ctx.db, persona, (content) => seen.add(normaliseText(content)));
  return seen;
}

export async function importFromTool(
  ctx: CoreContext,
  persona: string,
  format: ImportFormat,
  text: string,
  dryRun: boolean,
): Promise<ImportFromResult> {
  await requirePersona(ctx.db, persona);
  const items = readItems(format, text, localDay(ctx.now()));
  if (!items.length) throw importError('Nothing to import: no memories were found in what you gave.');
  if (items.length > MAX_ITEMS) throw importError(`That is ${items.length} memories; import at most ${MAX_ITEMS} at a time.`);
  // Half a surrogate pair (a \uD800 escape in JSON) cannot be stored: refused by item, not replaced unseen.
  const broken = items.findIndex((i) => LONE_SURROGATE.test(i.content) || (i.category !== null && LONE_SURROGATE.test(i.category)));
  if (broken >= 0) {
    throw importError(`Item ${broken + 1} holds text that is not valid Unicode (half of a character pair, which cannot be stored). Nothing was imported.`);
  }
  const tooLong = items.findIndex((i) => i.content.length > MAX_MEMORY_CHARS);
  if (tooLong >= 0) throw importError(`Item ${tooLong + 1} is longer than ${MAX_MEMORY_CHARS} characters, the most a memory holds. Nothing was imported.`);
  const seen = await existingTexts(ctx, persona);
  const out: ImportFromItem[] = [];
  const toWrite: Item[] = [];
  const fresh: number[] = [];
  for (const i of items) {
    const key = normaliseText(i.content);
    const duplicate = !key || seen.has(key);
    seen.add(key);
    if (!duplicate) fresh.push(out.length);
    out.push({ ...i, status: duplicate ? 'duplicate' : 'added' });
  }
  const near = await nearDuplicatesOf(ctx, persona, fresh.map((n) => out[n]!.content));
  let nearDuplicates = 0;
  fresh.forEach((n, k) => {
    const of = near[k];
    if (of) {
      out[n] = { ...out[n]!, status: 'near-duplicate', duplicateOf: of };
      nearDuplicates++;
    } else toWrite.push(items[n]!);
  });
  if (!dryRun && toWrite.length) {
    await importMemories(ctx, persona, toWrite.map((i) => ({ content: i.content, category: i.category, day: i.day, ...(i.importance ? { importance: i.importance } : {}) })));
    ctx.wakeJobs();
  }
  const skipped = items.length - toWrite.length;
  return {
    added: toWrite.length,
    skipped,
    duplicates: skipped - nearDuplicates,
    nearDuplicates,
    items: out.slice(0, PREVIEW_ITEMS),
    dryRun,
  };
}

/**
 * Beyond this many new items an import checks exact text only: each check is
 * a few index look-ups (docs/duplicates.md), and a first import of a whole
 * archive into an empty persona has nothing to repeat.
 */
const NEAR_CHECK_MAX = 5_000;

/** For each text, the id of a stored memory of the persona that says it in other words, or null. */
async function nearDuplicatesOf(ctx: CoreContext, persona: string, texts: string[]): Promise<(string | null)[]> {
  if (!texts.length || texts.length > NEAR_CHECK_MAX) return texts.map(() => null);
  const vectors = await embedAll(ctx, persona, texts);
  const out: (string | null)[] = [];
  for (let k = 0; k < texts.length; k++) {
    const found = await findNearDuplicate(ctx, persona, texts[k]!, { vector: vectors[k] ?? null });
    out.push(found ? found.memory.id : null);
  }
  return out;
}

/** The texts' current-model vectors in batches, or nulls (text-only database, model failing): the text rule decides then. */
async function embedAll(ctx: CoreContext, persona: string, texts: string[]): Promise<(Float32Array | null)[]> {
  if (!ctx.db.features.vector) return texts.map(() => null);
  try {
    // A local-only persona's texts reach no provider off this computer (docs/privacy.md): the text rule decides then.
    const provider = ctx.embedder.current(await personaPrivacy(ctx.db, persona));
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += provider.maxBatch) out.push(...(await provider.embed(texts.slice(i, i + provider.maxBatch))));
    return out;
  } catch (e) {
    console.warn(`import: texts not embedded for the near-duplicate check, text rule only (${(e as Error).message})`);
    return texts.map(() => null);
  }
}

export function decodeInput(text: string | undefined, dataBase64: string | undefined): string {
  if (text !== undefined && dataBase64 !== undefined) throw new AppError('invalid_args', 'Give either text or dataBase64, not both.');
  if (text !== undefined) return text;
  if (dataBase64 === undefined) throw new AppError('invalid_args', 'Give the text to import (text) or a file (dataBase64).');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(dataBase64)) throw new AppError('invalid_args', 'dataBase64 is not valid base64.');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(dataBase64, 'base64')).replace(/^\uFEFF/, '');
  } catch {
    throw importError('The file is not UTF-8 text.');
  }
}
