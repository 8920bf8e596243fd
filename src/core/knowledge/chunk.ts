import type { Segment } from '../parse/types';
import { splitLongParagraph } from './split';

export interface Chunk {
  content: string;
  pageFrom?: number;
  pageTo?: number;
}

export interface ChunkOptions {
  /** Upper bound on a chunk's length in UTF-16 code units, overlap included. */
  size: number;
  /** How much of a chunk's end is repeated at the start of the next one. */
  overlap: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { size: 3000, overlap: 200 };

const PARAGRAPH_BREAK = '\n\n';

/** A paragraph, or a piece of one too long to fit a chunk. */
interface Unit {
  text: string;
  page: number | undefined;
  /** True when this unit continues the paragraph of the unit before it. */
  continues: boolean;
}

function units(segments: Segment[], maxUnit: number): Unit[] {
  const out: Unit[] = [];
  for (const seg of segments) {
    const text = seg.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    for (const raw of text.split(/\n[ \t\f\v]*\n/)) {
      const para = raw.trim();
      if (!para) continue;
      splitLongParagraph(para, maxUnit).forEach((piece, i) => {
        out.push({ text: piece, page: seg.page, continues: i > 0 });
      });
    }
  }
  return out;
}

/** The end of a chunk to repeat: at most `max` long, starting at a word boundary when there is one. */
export function overlapTail(text: string, max: number): string {
  if (max <= 0 || text.length === 0) return '';
  if (text.length <= max) return text;
  let start = text.length - max;
  // Never start inside a surrogate pair.
  if (/[\uDC00-\uDFFF]/.test(text[start] ?? '')) start++;
  const window = text.slice(start);
  const space = window.search(/\s\S/);
  // Text without spaces (CJK) has no word boundary: keep the characters as they are.
  return space >= 0 && space < window.length / 2 ? window.slice(space + 1) : window;
}

interface Open {
  parts: string[];
  length: number;
  pageFrom: number | undefined;
  pageTo: number | undefined;
  fresh: number; // units added after the overlap
}

function minPage(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
function maxPage(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/**
 * Cuts a document into paragraph-aligned chunks in document order. Each chunk
 * after the first starts with up to `overlap` characters from the end of the
 * one before, so a sentence on a boundary can be found from either side.
 * Chunks never exceed `size` and are never empty or whitespace.
 */
export function chunkDocument(segments: Segment[], options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const { size, overlap } = options;
  if (overlap < 0 || size < 2 * (overlap + PARAGRAPH_BREAK.length) + 1) {
    throw new RangeError('chunk size must be well above twice the overlap');
  }
  // A unit plus the carried overlap and a paragraph break must fit one chunk.
  const list = units(segments, size - overlap - PARAGRAPH_BREAK.length);
  const chunks: Chunk[] = [];
  let open: Open = { parts: [], length: 0, pageFrom: undefined, pageTo: undefined, fresh: 0 };
  let lastPage: number | undefined;

  const close = () => {
    const content = open.parts.join('').trim();
    if (open.fresh > 0 && content) {
      chunks.push({
        content,
        ...(open.pageFrom !== undefined ? { pageFrom: open.pageFrom, pageTo: open.pageTo } : {}),
      });
    }
    const tail = overlapTail(content, overlap);
    open = { parts: tail ? [tail] : [], length: tail.length, pageFrom: lastPage, pageTo: lastPage, fresh: 0 };
  };

  // Pieces of one paragraph keep their own whitespace, so they join with nothing.
  const separator = (u: Unit) => (open.length === 0 || u.continues ? '' : PARAGRAPH_BREAK);
  for (const u of list) {
    if (open.fresh > 0 && open.length + separator(u).length + u.text.length > size) close();
    const sep = separator(u);
    open.parts.push(sep, u.text);
    open.length += sep.length + u.text.length;
    open.pageFrom = minPage(open.pageFrom, u.page);
    open.pageTo = maxPage(open.pageTo, u.page);
    open.fresh++;
    lastPage = u.page;
  }
  if (open.fresh > 0) close();
  return chunks;
}
