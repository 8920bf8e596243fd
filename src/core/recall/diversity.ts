// What recall returns once every candidate memory is scored: by default the
// best `limit`; with the spread switched on (tuning.ts), a list that reaches
// several days instead of several near-copies of one moment. A question
// asking for many things ("what activities…", "where has she camped?") has
// its answers in memories written on different days, while the formula fills
// the top with the best match's day — the same conversation, said again.
// Off unless the tuning turns it on (docs/ranking.md, "Spread over days").
import type { ScoreBreakdown } from '../../shared/api';
import type { Queryable } from '../db/client';
import { decodeVector } from '../db/vector';
import { byScore } from './score';
import type { RecallTuning } from './tuning';

/** One scored memory, best first in the list recall hands over. */
export interface RankedMemory {
  id: string;
  score: ScoreBreakdown;
  fromNeighbours: number;
  /** YYYY-MM-DD: the day it was written about. */
  day: string;
}

/**
 * How deep into the ranking the spread may reach for a limit: a memory far
 * below the best is no longer an answer. The candidate path guarantees the
 * formula's exact order down to this depth (memories.ts), so every path picks
 * from the same rows.
 */
export function spreadDepth(limit: number, t: RecallTuning, query: string): number {
  return spreads(t, query) ? SPREAD_REACH * limit : limit;
}

const SPREAD_REACH = 3;

function spreads(t: RecallTuning, query: string): boolean {
  if (t.dayCap <= 0 && t.mmr <= 0) return false;
  return !t.spreadListOnly || asksForMany(query);
}

/**
 * Words that do not make a noun plural although they end in s: auxiliaries,
 * pronouns, adverbs. Anything else ending in a single s right after
 * "what"/"which" is read as a plural noun ("what activities", "which cities").
 */
const NOT_PLURAL = new Set(['is', 'was', 'has', 'does', 'this', 'his', 'its', 'yes', 'us', 'as', 'thus', 'always', 'perhaps', 'unless', 'across', 'whereas', 'hers', 'ours', 'yours', 'theirs']);

/**
 * A question asking for several things, read from general English cues: a
 * plural after what/which ("which cities…", "what kinds of…"), the present
 * perfect that sums up a past ("what has she painted?", "where have we
 * camped?"), or words of counting and totality ("ever", "all", "both", "how
 * many times"). A guess, and a cheap one: a wrong yes only reorders a list.
 */
export function asksForMany(query: string): boolean {
  const q = query.toLowerCase().replace(/[\u2019]/g, "'");
  if (/\b(ever|all|both|every|how many|how often|times|kinds|types|sorts|ways)\b/.test(q)) return true;
  if (/\b(has|have)\s+(?:[\p{L}'-]+\s+){1,3}?(?:[\p{L}]+ed|been|done|made|seen|gone|taken|read|written|met|had|tried|bought|built|won|given|sung|drawn|grown|eaten|found)\b/u.test(q)) return true;
  // "which cities…", "what C++ books…", "what are some changes…": one of the two words after what/which (or after "what are (the|some)").
  const m = /\b(?:what|which)\s+(?:are\s+(?:the\s+|some\s+)?)?([\p{L}+'-]+)(?:\s+([\p{L}'-]+))?/u.exec(q);
  return !!m && [m[1], m[2]].some((w) => w !== undefined && isPlural(w));
}

function isPlural(w: string): boolean {
  return w.length > 3 && w.endsWith('s') && !/(ss|us|is|'s)$/.test(w) && !NOT_PLURAL.has(w);
}

/**
 * The `limit` memories recall returns, from `ranked` (best first). Off: the
 * top `limit`. On: at most `dayCap` from any one day, and with `mmr` (λ) a
 * memory whose meaning repeats one already chosen (its vector's cosine to it)
 * gives way to the next best that adds something: maximal marginal relevance,
 * λ·score/best − (1 − λ)·max similarity. Rows the cap or the penalty skipped
 * fill what is left, best first, so a list is never shorter for it.
 */
export async function spreadTop(q: Queryable, ranked: RankedMemory[], limit: number, t: RecallTuning, query: string, model: string): Promise<RankedMemory[]> {
  if (!spreads(t, query) || ranked.length <= 1) return ranked.slice(0, limit);
  const pool = ranked.slice(0, SPREAD_REACH * limit);
  const vectors = t.mmr > 0 ? await memoryVectorsById(q, pool.map((r) => r.id), model) : new Map<string, Float32Array>();
  const best = pool[0]!.score.final || 1;
  const chosen: RankedMemory[] = [];
  const perDay = new Map<string, number>();
  const left = new Set(pool.map((_, i) => i));
  while (chosen.length < limit && left.size) {
    let pick = -1;
    let pickValue = -Infinity;
    for (const i of left) {
      const r = pool[i]!;
      if (t.dayCap > 0 && (perDay.get(r.day) ?? 0) >= t.dayCap) continue;
      const value = t.mmr > 0 ? t.mmr * (r.score.final / best) - (1 - t.mmr) * maxSimilarity(vectors.get(r.id), chosen, vectors) : -i;
      if (value > pickValue) {
        pick = i;
        pickValue = value;
      }
    }
    if (pick < 0) break;
    left.delete(pick);
    const r = pool[pick]!;
    chosen.push(r);
    perDay.set(r.day, (perDay.get(r.day) ?? 0) + 1);
  }
  // The cap left the list short (few days among the candidates): the best of the rest fill it.
  for (const i of [...left].sort((a, b) => a - b)) if (chosen.length < limit) chosen.push(pool[i]!);
  // Which memories, not their order, is what the spread changes: the list stays in the formula's order.
  return chosen.sort(byScore);
}

/** Unit vectors of these memories by the current model (rows without one are left out). */
async function memoryVectorsById(q: Queryable, ids: string[], model: string): Promise<Map<string, Float32Array>> {
  const { rows } = await q.query<{ id: string; v: Uint8Array }>(
    `SELECT m.id, vector_send(m.embedding) AS v FROM memories m WHERE m.id = ANY($1::uuid[]) AND m.embedding IS NOT NULL AND m.embedding_model = $2`,
    [ids, model],
  );
  return new Map(rows.map((r) => [r.id, unit(decodeVector(r.v))]));
}

function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  if (s > 0) {
    const k = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i]! *= k;
  }
  return v;
}

function maxSimilarity(v: Float32Array | undefined, chosen: RankedMemory[], vectors: Map<string, Float32Array>): number {
  if (!v) return 0;
  let m = 0;
  for (const c of chosen) {
    const u = vectors.get(c.id);
    if (!u) continue;
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i]! * u[i]!;
    if (s > m) m = s;
  }
  return m;
}
