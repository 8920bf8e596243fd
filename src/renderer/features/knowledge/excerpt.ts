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
export function excerpt(content: string, query: string, radius = 280): { parts: ExcerptPart[]; clipped: boolean } {
  // Stop words ("the", "is") match everywhere and say nothing: they are neither weighed nor highlighted.
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].filter((w) => !STOP.has(w));
  const text = content.replace(/\s+/g, ' ').trim();
  if (words.length === 0) return { parts: [{ text: text.slice(0, 2 * radius), match: false }], clipped: text.length > 2 * radius };
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${words.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
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
