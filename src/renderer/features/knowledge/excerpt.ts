import { MARK_CLOSE, MARK_OPEN } from '../../components/markdown-marks';
import { STOP } from '../../lib/stop-words';

export interface ExcerptPart {
  text: string;
  match: boolean;
}

const LEAD = 40;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The part of a chunk (~3000 characters) around the best cluster of query
 * words (rare ones count most), split into plain and matching parts for highlighting.
 */
/** The query's words as one whole-word pattern, or null when it has none worth matching. */
function queryPattern(query: string): RegExp | null {
  // Stop words ("the", "is") match everywhere and say nothing: they are neither weighed nor highlighted.
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].filter((w) => !STOP.has(w));
  if (words.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(${words.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

/** Where the best cluster of query words in `text` starts: rare words in this chunk count most. */
function bestCluster(text: string, re: RegExp, radius: number): number {
  const hits = [...text.matchAll(re)].map((m) => ({ at: m.index, word: m[0].toLowerCase() }));
  // Rare words in this chunk say more than ones on every line: weigh each match by 1/frequency.
  const freq = new Map<string, number>();
  for (const h of hits) freq.set(h.word, (freq.get(h.word) ?? 0) + 1);
  let best = 0;
  let bestScore = -1;
  for (const h of hits) {
    // Scored over a little less than what is shown, which starts LEAD earlier.
    const inWindow = hits.filter((x) => x.at >= h.at && x.at + x.word.length <= h.at + 2 * radius - 2 * LEAD);
    const score = inWindow.reduce((sum, x) => sum + 1 / (freq.get(x.word) ?? 1), 0);
    if (score > bestScore) [best, bestScore] = [h.at, score];
  }
  return best;
}

export function excerpt(content: string, query: string, radius = 280): { parts: ExcerptPart[]; clipped: boolean } {
  const text = content.replace(/\s+/g, ' ').trim();
  const re = queryPattern(query);
  if (!re) return { parts: [{ text: text.slice(0, 2 * radius), match: false }], clipped: text.length > 2 * radius };
  const best = bestCluster(text, re, radius);
  const start = Math.max(0, Math.min(best - LEAD, text.length - 2 * radius));
  const from = start > 0 ? text.indexOf(' ', start) + 1 || start : 0;
  const to = Math.min(text.length, from + 2 * radius);
  const slice = text.slice(from, to);
  const parts: ExcerptPart[] = [];
  let last = 0;
  for (const m of slice.matchAll(re)) {
    if (m.index > last) parts.push({ text: slice.slice(last, m.index), match: false });
    parts.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  if (last < slice.length) parts.push({ text: slice.slice(last), match: false });
  return { parts, clipped: from > 0 || to < text.length };
}

export interface MatchExcerpt {
  before: string;
  sentence: string;
  after: string;
  clipped: boolean;
}

/**
 * The sentences recall matched best (`start`..`end` of `content`, from the hit's
 * window) with up to `radius` characters of context on each side, cut at spaces.
 * Null when the hit names no such span (text-only recall, older chunks).
 */
export function matchExcerpt(content: string, match: { start?: number; end?: number } | undefined, radius = 160): MatchExcerpt | null {
  const { start, end } = match ?? {};
  if (start === undefined || end === undefined || start < 0 || end > content.length || end <= start) return null;
  let from = Math.max(0, start - radius);
  if (from > 0) from = content.indexOf(' ', from) + 1 || from;
  if (from > start) from = start;
  let to = Math.min(content.length, end + radius);
  if (to < content.length) to = Math.max(end, content.lastIndexOf(' ', to));
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return {
    before: flat(content.slice(from, start)).trimStart(),
    sentence: flat(content.slice(start, end)),
    after: flat(content.slice(end, to)).trimEnd(),
    clipped: from > 0 || to < content.length,
  };
}


/** Block syntax at the start of a line ("# ", "- ", "1. ", "> "): a mark opening there would stop it being syntax. */
const BLOCK_PREFIX = /^[ \t]{0,3}(?:(?:#{1,6}|[-*+]|\d{1,9}[.)]|>)[ \t]+)*/;

function lineStart(content: string, at: number): number {
  return content.lastIndexOf('\n', at - 1) + 1;
}

/** Moves a highlight's start past the line's block syntax when it opens at the start of a line. */
function afterBlockPrefix(content: string, at: number): number {
  const line = lineStart(content, at);
  if (content.slice(line, at).trim() !== '') return at;
  return line + (BLOCK_PREFIX.exec(content.slice(line))?.[0].length ?? 0);
}

/**
 * The part of a Markdown chunk to show, still Markdown: whole lines around the matched sentences (or the
 * best cluster of query words) when they are short, else cut at a space; the highlights wrapped in
 * MARK_OPEN/MARK_CLOSE. `whole` keeps every line (the highlights stay).
 */
export function markdownExcerpt(
  raw: string,
  query: string,
  match: { start?: number; end?: number } | undefined,
  { radius = 280, whole = false } = {},
): { text: string; clipped: boolean } {
  // The markers must mean only what this function puts in (same length: offsets stay valid).
  const content = raw.replace(/[\uE000\uE001]/g, '\uFFFD');
  const { start, end } = match ?? {};
  const ranges: [number, number][] = [];
  let focus: [number, number];
  if (start !== undefined && end !== undefined && start >= 0 && end <= content.length && end > start) {
    ranges.push([afterBlockPrefix(content, start), end]);
    focus = [start, end];
  } else {
    const re = queryPattern(query);
    for (const m of re ? content.matchAll(re) : []) ranges.push([m.index, m.index + m[0].length]);
    const best = re ? bestCluster(content, re, radius) : 0;
    focus = [best, best];
  }
  let from = 0;
  let to = content.length;
  if (!whole) {
    const want = Math.max(0, focus[0] - radius);
    from = lineStart(content, want);
    if (focus[0] - from > 2 * radius) from = Math.min(focus[0], content.indexOf(' ', want) + 1 || want);
    const until = Math.min(content.length, focus[1] + radius);
    const eol = content.indexOf('\n', until);
    to = eol === -1 ? content.length : eol;
    if (to - focus[1] > 2 * radius) to = Math.max(focus[1], content.lastIndexOf(' ', until));
  }
  let text = '';
  let at = from;
  for (const [a, b] of ranges) {
    const s = Math.max(a, from);
    const e = Math.min(b, to);
    if (e <= s || s < at) continue;
    text += content.slice(at, s) + MARK_OPEN + content.slice(s, e) + MARK_CLOSE;
    at = e;
  }
  text += content.slice(at, to);
  const midLine = (i: number) => i > 0 && content[i - 1] !== '\n';
  const clipped = from > 0 || to < content.length;
  return { text: `${midLine(from) ? '… ' : ''}${text}${to < content.length && content[to] !== '\n' ? ' …' : ''}`, clipped };
}

/** A knowledge source written in Markdown (shown rendered, as chat is). */
export function isMarkdownSource(source: string | undefined): boolean {
  return /\.(md|markdown|mdown|mkd)$/i.test(source ?? '');
}
