// Sentence windows of a chunk: runs of whole sentences up to WINDOW_CHARS,
// side by side. A sentence encoder compares a short question with a whole
// 3,000-character chunk poorly (the cosines of all chunks crowd together), and
// the built-in model reads only a text's first ~128 tokens (~400 characters of
// technical prose), so a chunk's own vector saw only its opening lines.
// Compared with a few sentences it separates the one that answers.
// docs/ranking.md, "Knowledge".
import { contextualKey, type KeyContext } from '../text/contextual-key';
import type { Chunk, PageMark } from './chunk';
import { isHeading } from './headings';

/** A window's longest text; a sentence longer than this is cut at word boundaries. */
export const WINDOW_CHARS = 320;

export interface ChunkWindow {
  /** Offsets into the chunk's content: the text shown highlighted. */
  start: number;
  end: number;
  page: number | null;
  /** What is embedded: the window's text with its title and heading (contextual-key.ts). */
  key: string;
}

// A sentence ends at . ! ? … (plus closing quotes/brackets) before whitespace, or at a CJK full stop.
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s)|[。！？]+["'”’」』)）]*/g;

/** [start, end) of each sentence, whitespace excluded; pieces longer than `max` cut at spaces. */
export function sentenceSpans(text: string, max = WINDOW_CHARS): [number, number][] {
  const spans: [number, number][] = [];
  const push = (from: number, to: number) => {
    while (from < to && /\s/.test(text[from]!)) from++;
    while (to > from && /\s/.test(text[to - 1]!)) to--;
    while (to - from > max) {
      // Cut at the last space before `max`, else hard (a giant token).
      let cut = text.lastIndexOf(' ', from + max);
      if (cut <= from) cut = from + max;
      spans.push([from, cut]);
      from = cut;
      while (from < to && /\s/.test(text[from]!)) from++;
    }
    if (to > from) spans.push([from, to]);
  };
  // Paragraph by paragraph: a heading ("2.1. Replication Slots") is one span, not cut at its dots.
  for (const para of text.matchAll(/[^\n]+(?:\n(?![ \t]*\n)[^\n]*)*/g)) {
    const base = para.index;
    if (isHeading(para[0])) {
      push(base, base + para[0].length);
      continue;
    }
    let from = base;
    for (const m of para[0].matchAll(SENTENCE_END)) {
      const at = base + m.index + m[0].length;
      push(from, at);
      from = at;
    }
    push(from, base + para[0].length);
  }
  return spans;
}

function pageAt(marks: PageMark[] | undefined, at: number, fallback: number | undefined): number | null {
  let page = fallback ?? null;
  for (const m of marks ?? []) if (m.at <= at) page = m.page;
  return page;
}

/**
 * The windows of one chunk. A window's heading is the last heading inside the
 * chunk before it, else the chunk's own.
 */
export function chunkWindows(chunk: Chunk, title: string | null, options: { pdf?: boolean; maxChars?: number } = {}): ChunkWindow[] {
  const max = options.maxChars ?? WINDOW_CHARS;
  const text = chunk.content;
  const spans = sentenceSpans(text, max);
  const heads = new Set(spans.filter(([a, b]) => isHeading(text.slice(a, b))));
  const headings = [...heads];
  const out: ChunkWindow[] = [];
  let i = 0;
  while (i < spans.length) {
    let j = i;
    // A window stays inside one section: a heading starts the next one.
    while (j + 1 < spans.length && !heads.has(spans[j + 1]!) && spans[j + 1]![1] - spans[i]![0] <= max) j++;
    const start = spans[i]![0];
    const end = spans[j]![1];
    const heading = [...headings].reverse().find(([a]) => a < start);
    const context: KeyContext = { title, heading: heading ? text.slice(heading[0], heading[1]) : chunk.heading ?? null };
    out.push({ start, end, page: pageAt(chunk.pageMarks, start, chunk.pageFrom), key: contextualKey(text.slice(start, end), context, options) });
    if (j + 1 >= spans.length) break;
    // Windows do not share sentences: the model's time grows with every token it reads, and a shared
    // sentence made a quarter of what it read (docs/ranking.md, "Sentence windows").
    i = j + 1;
  }
  return out;
}
