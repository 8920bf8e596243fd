// "Why recalled" in words a person reads first; the numbers stay behind a disclosure.
import { FAIR_COSINE, isMatch, MEANINGFUL_COSINE, type RecallHit } from '../../../shared/api';
import { STOP } from '../../lib/stop-words';



function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Query words that occur in the text (same word or sharing its first five letters: "deploys" ~ "deploy"). */
export function matchedWords(query: string, content: string): string[] {
  const inText = words(content);
  const out: string[] = [];
  for (const q of new Set(words(query))) {
    if (q.length < 2 || STOP.has(q)) continue;
    const stem = q.slice(0, 5);
    if (inText.some((w) => w === q || (stem.length >= 4 && w.startsWith(stem)))) out.push(q);
  }
  return out;
}

function ago(iso: string, now: Date): string {
  const days = Math.floor((now.getTime() - new Date(iso).getTime()) / 86_400_000);
  if (days <= 0) return 'saved today';
  if (days === 1) return 'saved yesterday';
  if (days < 60) return `saved ${days} days ago`;
  return `saved ${Math.round(days / 30)} months ago`;
}

/**
 * A hit with neither a word match of its own nor a meaningful vector match:
 * shown apart, as a weaker match, and not among the matches the page counts
 * (the same rule as the core's count, shared/recall-match.ts).
 */
export function isWeak(hit: RecallHit): boolean {
  return !isMatch(hit);
}

export interface Why {
  matched: string[];
  meaning: boolean;
  rest: string[];
}

/** The reasons, in the order they weigh: words, meaning, importance, age. */
export function whyRecalled(hit: RecallHit, query: string, now = new Date()): Why {
  // The text score may be only what a neighbour lent: then no word of this memory matched.
  const ownText = hit.score.text - (hit.score.textFromNeighbours ?? 0) > 1e-9;
  const matched = ownText ? matchedWords(query, hit.content) : [];
  const meaning = hit.score.cosine !== null && hit.score.cosine >= MEANINGFUL_COSINE;
  const rest: string[] = [];
  if (ownText && matched.length === 0) rest.push('related words');
  if (hit.score.textFromNeighbours) rest.push('written alongside a match');
  if (hit.score.timeBoost) rest.push('written in the time you asked about');
  if (hit.memory) {
    rest.push(`importance ${hit.memory.importance}`);
    rest.push(ago(hit.memory.insertedAt, now));
  }
  return { matched, meaning, rest };
}

/** How many of the closest by meaning are shown open when no memory matches, and (fair or strong ones) beside matches. */
export const CLOSEST_ALONE = 5;
export const CLOSEST_BESIDE = 3;

export interface SplitHits {
  /** Words of the query or a strong match in meaning: the count's matches, in recall's order. */
  matches: RecallHit[];
  /** Other hits with a vector, closest in meaning first: the best there is, never hidden. */
  closest: RecallHit[];
  /** The rest, recalled for importance or recency. */
  weaker: RecallHit[];
}

/**
 * The search page's three groups. A search never says "nothing" while the model found something
 * close: the closest by meaning are shown ranked, with their strength in words.
 */
export function splitHits(hits: RecallHit[]): SplitHits {
  const matches = hits.filter((h) => !isWeak(h));
  const byMeaning = hits.filter((h) => isWeak(h) && h.score.cosine !== null).sort((a, b) => b.score.cosine! - a.score.cosine!);
  // Alone, the closest are the best there is, however weak; beside matches, only the fairly close.
  const closest = matches.length === 0 ? byMeaning.slice(0, CLOSEST_ALONE) : byMeaning.filter((h) => h.score.cosine! >= FAIR_COSINE).slice(0, CLOSEST_BESIDE);
  const shown = new Set([...matches, ...closest]);
  return { matches, closest, weaker: hits.filter((h) => !shown.has(h)) };
}
