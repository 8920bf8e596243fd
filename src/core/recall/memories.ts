// Recall over memories: seeds from three indexes, the formula in JS, then the
// rows a score bound cannot rule out. The exact scan runs the same formula
// over every row of the persona.
import type { RecallHit, ScoreBreakdown } from '../../shared/api';
import { MEANINGFUL_COSINE } from '../../shared/recall-match';
import type { Queryable } from '../db/client';
import { toMemory } from '../memories/row';
import { levelWindows } from './memory-bounds';
import { memoryRowsById, type ScoringRow, scoringRows, type SeedRow, seedRows, windowRows } from './memory-rows';
import type { CandidateSizes, Probe } from './probe';
import { decodeVector, encodeVector } from '../db/vector';
import { memoryVectors, movedToward } from './feedback';
import { expansionQuery } from './second-round';
import { type RankedMemory, spreadDepth, spreadTop } from './diversity';
import { withStreamNeighbours } from './stream-expansion';
import { byScore, cosineOrNull, memoryScore, textNormaliser } from './score';
import { rawText } from './text-query';
import { inRanges } from './time-query';

/**
 * Which rows recall scores: chosen by the indexes and the bound, every row,
 * or one day's. `sizes.text` also fixes which text matches lend context, so
 * every path must use the same sizes for one limit.
 */
export type MemoryScope = { kind: 'candidates' | 'exact'; sizes: CandidateSizes } | { kind: 'day'; day: string; sizes: CandidateSizes };

/**
 * Text context from the query's top-k text matches: each match lends its text
 * score to the memories written just before and after it in its stream (see
 * variants.ts). Rows outside the matches and their neighbours inherit nothing,
 * so the context is known from the matches alone, on every path.
 */
function contextFrom(probe: Probe, seeds: SeedRow[]): Map<string, number> {
  const matchText = new Map(seeds.filter((s) => s.src === 't').map((h) => [h.id, rawText(probe.tq, 'memories', h)]));
  const ctx = new Map<string, number>();
  for (const n of seeds) {
    const t = n.src === 'n' && n.hit ? (matchText.get(n.hit) ?? 0) : 0;
    if (t > (ctx.get(n.id) ?? 0)) ctx.set(n.id, t);
  }
  return ctx;
}

interface Scored {
  row: ScoringRow;
  text: number;
  raw: number;
}

class Scoreboard {
  readonly rows = new Map<string, Scored>();
  constructor(
    private probe: Probe,
    private ctx: Map<string, number>,
  ) {}

  add(rows: ScoringRow[]): void {
    for (const row of rows) {
      if (this.rows.has(row.id)) continue;
      const text = rawText(this.probe.tq, 'memories', row);
      this.rows.set(row.id, { row, text, raw: text + this.probe.tuning.neighbourShare * (this.ctx.get(row.id) ?? 0) });
    }
  }

  /** The formula over every scored row, text normalised by the best among them; best first. */
  ranked(): RankedMemory[] {
    const all = [...this.rows.values()];
    const norm = textNormaliser(all.map((s) => s.raw));
    return all
      .map(({ row, text, raw }) => ({
        id: row.id,
        score: this.inTime(memoryScore(norm(raw), cosineOrNull(row.distance), row.importance, row.days), row.on_day),
        fromNeighbours: raw > text ? norm(raw) - norm(text) : 0,
        day: row.on_day,
      }))
      .sort(byScore);
  }

  /** The time boost: written within a time the query names (time-query.ts). */
  private inTime(score: ScoreBreakdown, day: string): ScoreBreakdown {
    if (!this.probe.timeRanges.length || !inRanges(day, this.probe.timeRanges)) return score;
    const boost = 1 + this.probe.tuning.timeBoost;
    return { ...score, final: score.final * boost, timeBoost: boost };
  }

  best(): number {
    let b = 0;
    for (const s of this.rows.values()) if (s.raw > b) b = s.raw;
    return b;
  }
}

/** Rows per importance level the bound may add at most: a same-instant bulk import must not turn recall into a full scan. */
const WINDOW_CAP = 200;

export async function recallMemories(tx: Queryable, probe: Probe, scope: MemoryScope, limit: number): Promise<RecallHit[]> {
  const k = scope.sizes;
  const seeds = await seedRows(tx, probe, k, scope.kind !== 'candidates');
  const textHits = seeds.filter((s) => s.src === 't');
  const ctx = contextFrom(probe, seeds);
  const board = new Scoreboard(probe, ctx);
  if (scope.kind !== 'candidates') board.add(await scoringRows(tx, probe, scope.kind === 'day' ? scope.day : null));
  else {
    board.add(seeds);
    // Exact down to the depth the spread may pick from (diversity.ts), not only to the limit.
    const floor = board.ranked()[spreadDepth(limit, probe.tuning, probe.tq.text) - 1]?.score.final ?? 0;
    const best = board.best();
    const kthText = textHits.length >= k.text ? Math.min(...textHits.map((h) => board.rows.get(h.id)?.text ?? 0)) : 0;
    const vectorHits = seeds.filter((s) => s.src === 'v');
    // Fewer than k by vector can also mean HNSW gave up scanning past other personas' rows: nothing is known then.
    const kthCosine = vectorHits.length >= k.vector ? Math.min(...vectorHits.map((h) => cosineOrNull(h.distance) ?? 1)) : 1;
    const windows = levelWindows({
      // An unseen row within the query's time may yet be boosted: the bound must reach that far.
      floor: probe.timeRanges.length ? floor / (1 + probe.tuning.timeBoost) : floor,
      text: best > 0 ? Math.min(1, kthText / best) : 0,
      cosine: probe.vector ? Math.max(0, kthCosine) : null,
      now: probe.now,
    });
    if (windows.length) board.add(await windowRows(tx, probe, windows, [...board.rows.keys()], WINDOW_CAP));
  }
  const t = probe.tuning;
  const ranked = t.expandShare > 0 && scope.kind !== 'day' ? await withStreamNeighbours(tx, probe, board.ranked(), Math.min(t.expandSeeds, limit), t.expandShare) : board.ranked();
  let top = await spreadTop(tx, ranked, limit, t, probe.tq.text, probe.model);
  if (probe.tuning.feedback > 0 && probe.vector && scope.kind !== 'day') {
    // Only hits that matched the question lend their meaning: one there for recency or importance would steer off topic.
    const lend = top.filter(matchedQuestion).slice(0, probe.tuning.feedbackDocs);
    const vs = await memoryVectors(tx, lend.map((r) => r.id), probe.model);
    if (vs.length) {
      const moved = movedToward(decodeVector(probe.vector), vs, probe.tuning.feedback);
      return recallMemories(tx, { ...probe, vector: encodeVector(moved), tuning: { ...probe.tuning, feedback: 0 } }, scope, limit);
    }
  }
  if (probe.tuning.hopShare > 0 && scope.kind !== 'day') top = await withSecondRound(tx, probe, scope.sizes, top, limit);
  const full = await memoryRowsById(tx, top.map((t) => t.id));
  return top.flatMap(({ id, score, fromNeighbours }) => {
    const row = full.get(id);
    if (!row) return [];
    const memory = toMemory(row, probe.model);
    if (fromNeighbours > 0) score.textFromNeighbours = fromNeighbours;
    return [{ kind: 'memory' as const, id, tag: memoryTag(memory), content: row.content, score, memory }];
  });
}

type Ranked = ReturnType<Scoreboard['ranked']>[number];

/** A hit that matched the question itself: its own words, or a close meaning (not only a neighbour's words, recency or importance). */
const matchedQuestion = (r: Ranked) => r.score.text - r.fromNeighbours > 1e-9 || (r.score.cosine ?? 0) >= MEANINGFUL_COSINE;

/**
 * The first round's top, merged with a second text-only round searching the
 * rarest new words of its best `hopSeeds` memories (second-round.ts): a row
 * keeps the better of its own score and `hopShare` of its second-round score.
 */
async function withSecondRound(tx: Queryable, probe: Probe, sizes: CandidateSizes, top: Ranked[], limit: number): Promise<Ranked[]> {
  const t = probe.tuning;
  // Only hits that matched the question lend words: a row there for its recency or importance would steer the round off topic.
  const matched = top.filter(matchedQuestion);
  const seeds = await memoryRowsById(tx, matched.slice(0, t.hopSeeds).map((r) => r.id));
  const texts = [...seeds.values()].map((r) => r.content);
  const tq = await expansionQuery(tx, probe.tq, t.hopNames ? texts.map(namesIn) : texts, t.hopTerms);
  if (!tq) return top;
  const second = { ...probe, tq };
  // Text matches and their stream neighbours only: the vector and recency seeds would repeat the first round's.
  const rows = await seedRows(tx, second, sizes, true);
  const board = new Scoreboard(second, contextFrom(second, rows));
  board.add(rows);
  const merged = new Map(top.map((r) => [r.id, r]));
  for (const r of board.ranked()) {
    const final = r.score.final * t.hopShare;
    const had = merged.get(r.id);
    if (!had || had.score.final < final) merged.set(r.id, { ...r, score: { ...r.score, final, secondRound: t.hopShare } });
  }
  return [...merged.values()].sort(byScore).slice(0, limit);
}

/** The names in a text: capitalised words not opening a sentence ("Tomasz", "Krakow"), the entities a second hop follows. */
export function namesIn(text: string): string {
  return (text.match(/(?<![.!?]\s+|^)\b\p{Lu}[\p{L}'-]+/gu) ?? []).join(' ');
}

export function memoryTag(m: { id: string; category: string | null; importance: number; day: string }): string {
  return `[memory ${m.id} · ${m.category ?? 'general'} · imp=${m.importance} · ${m.day}]`;
}
