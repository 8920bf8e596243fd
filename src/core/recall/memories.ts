// Recall over memories: seeds from three indexes, the formula in JS, then the
// rows a score bound cannot rule out. The exact scan runs the same formula
// over every row of the persona.
import type { RecallHit, ScoreBreakdown } from '../../shared/api';
import type { Queryable } from '../db/client';
import { toMemory } from '../memories/row';
import { levelWindows } from './memory-bounds';
import { memoryRowsById, type ScoringRow, scoringRows, type SeedRow, seedRows, windowRows } from './memory-rows';
import type { CandidateSizes, Probe } from './probe';
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
 * tuning.ts, neighbourShare). Rows outside the matches and their neighbours inherit nothing,
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

/** One scored memory, best first in the list the scoreboard ranks. */
interface RankedMemory {
  id: string;
  score: ScoreBreakdown;
  fromNeighbours: number;
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
    const floor = board.ranked()[limit - 1]?.score.final ?? 0;
    const best = board.best();
    const kthText = textHits.length >= k.text ? Math.min(...textHits.map((h) => board.rows.get(h.id)?.text ?? 0)) : 0;
    const vectorHits = seeds.filter((s) => s.src === 'v');
    // Fewer than k by vector can also mean HNSW gave up scanning past other personas' rows: nothing is known then.
    const graphCosine = vectorHits.length >= k.vector ? Math.min(...vectorHits.map((h) => cosineOrNull(h.distance) ?? 1)) : 1;
    // The staged rows' top k is exact: fewer than k means every staged row in scope is already scored.
    const stagedHits = seeds.filter((s) => s.src === 's');
    const stagedCosine = stagedHits.length >= k.vector ? Math.min(...stagedHits.map((h) => cosineOrNull(h.distance) ?? 1)) : -1;
    const kthCosine = Math.max(graphCosine, stagedCosine);
    const windows = levelWindows({
      // An unseen row within the query's time may yet be boosted: the bound must reach that far.
      floor: probe.timeRanges.length ? floor / (1 + probe.tuning.timeBoost) : floor,
      text: best > 0 ? Math.min(1, kthText / best) : 0,
      cosine: probe.vector ? Math.max(0, kthCosine) : null,
      now: probe.now,
    });
    if (windows.length) board.add(await windowRows(tx, probe, windows, [...board.rows.keys()], WINDOW_CAP));
  }
  const top = board.ranked().slice(0, limit);
  const full = await memoryRowsById(tx, top.map((t) => t.id));
  return top.flatMap(({ id, score, fromNeighbours }) => {
    const row = full.get(id);
    if (!row) return [];
    const memory = toMemory(row, probe.model);
    if (fromNeighbours > 0) score.textFromNeighbours = fromNeighbours;
    return [{ kind: 'memory' as const, id, tag: memoryTag(memory), content: row.content, score, memory }];
  });
}

export function memoryTag(m: { id: string; category: string | null; importance: number; day: string }): string {
  return `[memory ${m.id} · ${m.category ?? 'general'} · imp=${m.importance} · ${m.day}]`;
}
