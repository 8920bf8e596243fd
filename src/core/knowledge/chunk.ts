import type { Segment } from '../parse/types';
import { isHeading } from './headings';
import { splitLongParagraph } from './split';

export interface Chunk {
  content: string;
  pageFrom?: number;
  pageTo?: number;
  /** The heading of the section the chunk's own text starts in (its contextual key, docs/ranking.md). */
  heading?: string;
  /** Where each page's text starts in `content` (PDFs): lets a sentence of the chunk name its page. */
  pageMarks?: PageMark[];
}

export interface PageMark {
  at: number;
  page: number;
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
  /** This unit is a heading: it opens the section that follows. */
  heading: boolean;
  /** The nearest heading at or before this unit. */
  section: string | undefined;
}

function units(segments: Segment[], maxUnit: number): Unit[] {
  const out: Unit[] = [];
  let section: string | undefined;
  for (const seg of segments) {
    const text = seg.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    for (const raw of text.split(/\n[ \t\f\v]*\n/)) {
      const para = raw.trim();
      if (!para) continue;
      const heading = para.length <= maxUnit && isHeading(para);
      if (heading) section = para;
      splitLongParagraph(para, maxUnit).forEach((piece, i) => {
        out.push({ text: piece, page: seg.page, continues: i > 0, heading, section });
      });
    }
  }
  return out;
}

// Where a sentence starts: after . ! ? … (and closing quotes/brackets) and whitespace, or after a CJK full stop.
const SENTENCE_START = /[.!?…]["'”’)\]]*\s+(?=\S)|[。！？]["'”’」』)）]*/g;

/**
 * The end of a chunk to repeat: at most `max` long, starting where a
 * paragraph or sentence does, else at a word boundary, so the next chunk
 * never opens on half a word or half a command ("-W 0 can be used" without
 * its "hdparm"). Text without spaces (CJK, no stop) is kept as it is.
 */
export function overlapTail(text: string, max: number): string {
  if (max <= 0 || text.length === 0) return '';
  if (text.length <= max) return text;
  let start = text.length - max;
  // Never start inside a surrogate pair.
  if (/[\uDC00-\uDFFF]/.test(text[start] ?? '')) start++;
  const window = text.slice(start);
  // A paragraph start counts in the first half, a sentence start in the first four fifths:
  // a much shorter overlap would carry too little.
  const half = window.length / 2;
  const para = window.search(/\n\s*\n\s*\S/);
  if (para >= 0 && para < half) return window.slice(para).trimStart();
  for (const m of window.matchAll(SENTENCE_START)) {
    const at = m.index + m[0].length;
    if (at >= window.length * 0.8) break;
    if (at > 0) return window.slice(at);
  }
  if (start > 0 && /\s/.test(text[start - 1] ?? '') && /\S/.test(window[0] ?? '')) return window;
  const space = window.search(/\s\S/);
  return space >= 0 && space < half ? window.slice(space + 1) : window;
}

interface Open {
  parts: string[];
  length: number;
  pageFrom: number | undefined;
  pageTo: number | undefined;
  fresh: number; // units added after the overlap
  heading: string | undefined;
  marks: PageMark[];
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
  let open: Open = { parts: [], length: 0, pageFrom: undefined, pageTo: undefined, fresh: 0, heading: undefined, marks: [] };
  let lastPage: number | undefined;

  const close = () => {
    const joined = open.parts.join('');
    const content = joined.trim();
    const lead = joined.length - joined.trimStart().length;
    if (open.fresh > 0 && content) {
      const marks = open.marks.map((m) => ({ at: Math.max(0, m.at - lead), page: m.page })).filter((m) => m.at < content.length);
      chunks.push({
        content,
        ...(open.pageFrom !== undefined ? { pageFrom: open.pageFrom, pageTo: open.pageTo, pageMarks: marks } : {}),
        ...(open.heading !== undefined ? { heading: open.heading } : {}),
      });
    }
    const tail = overlapTail(content, overlap);
    open = {
      parts: tail ? [tail] : [],
      length: tail.length,
      pageFrom: lastPage,
      pageTo: lastPage,
      fresh: 0,
      heading: undefined,
      marks: lastPage !== undefined && tail ? [{ at: 0, page: lastPage }] : [],
    };
  };

  // Pieces of one paragraph keep their own whitespace, so they join with nothing.
  const separator = (u: Unit) => (open.length === 0 || u.continues ? '' : PARAGRAPH_BREAK);
  list.forEach((u, i) => {
    // A heading travels with the start of its section: when the two do not fit here, the heading moves on.
    const next = list[i + 1];
    const withNext = u.heading && next && !next.heading ? PARAGRAPH_BREAK.length + next.text.length : 0;
    const fitsFresh = overlap + u.text.length + withNext + 2 * PARAGRAPH_BREAK.length <= size;
    const need = separator(u).length + u.text.length + (fitsFresh ? withNext : 0);
    if (open.fresh > 0 && open.length + need > size) close();
    const sep = separator(u);
    open.parts.push(sep, u.text);
    const at = open.length + sep.length;
    open.length += sep.length + u.text.length;
    open.pageFrom = minPage(open.pageFrom, u.page);
    open.pageTo = maxPage(open.pageTo, u.page);
    if (u.page !== undefined && open.marks.at(-1)?.page !== u.page) open.marks.push({ at, page: u.page });
    if (open.fresh === 0) open.heading = u.heading ? u.text : u.section;
    open.fresh++;
    lastPage = u.page;
  });
  if (open.fresh > 0) close();
  return chunks;
}
