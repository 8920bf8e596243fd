// Batch sizes for export pages, import inserts and the placing of imported
// vectors, sized by time rather than by a fixed row count: the database has one
// connection, so every statement holds up every other call for as long as it
// runs. Aiming each statement at a few tens of milliseconds keeps other calls
// answered (docs/export.md) while batches stay big enough that per-statement
// overhead does not matter.

export interface PaceOptions {
  /** What one statement should take. */
  targetMs: number;
  min: number;
  max: number;
  start: number;
}

export const DEFAULT_PACE: PaceOptions = { targetMs: 40, min: 32, max: 2_000, start: 100 };

export class Pacer {
  size: number;
  constructor(private readonly o: PaceOptions = DEFAULT_PACE) {
    this.size = o.start;
  }

  /** Learns from one statement: `rows` rows took `ms`. */
  record(rows: number, ms: number): void {
    if (rows <= 0) return;
    const ideal = (this.o.targetMs * rows) / Math.max(ms, 0.1);
    // Shrink at once when too slow (another call is waiting); grow gently.
    const next = ideal < this.size ? ideal : Math.min(ideal, this.size * 1.5);
    this.size = Math.max(this.o.min, Math.min(this.o.max, Math.round(next)));
  }

  /**
   * Runs a statement over `rows` rows and learns from its time: the time it ran
   * in the database where the result says so. Time spent queued behind other
   * calls is not the batch's cost: counting it shrank every batch to the minimum
   * while the app was in use, and the export crawled (docs/export.md).
   */
  async time<T extends { ms?: number }>(rows: number, fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    const out = await fn();
    this.record(rows, out.ms ?? performance.now() - t);
    return out;
  }
}

/**
 * Lets the event loop turn during a long stretch of JavaScript (an import
 * parsing a page of lines, an export making a page's JSON): the answer to
 * another call waits in the event loop's queue until the stretch ends, so a
 * stretch counts as a wait as much as a statement does (docs/export.md).
 */
export class EventLoopTurns {
  private last = performance.now();
  constructor(private readonly everyMs = 10) {}

  /** Yields to the event loop once `everyMs` have passed since the last turn. */
  async maybe(): Promise<void> {
    if (performance.now() - this.last < this.everyMs) return;
    await new Promise<void>((r) => setImmediate(r));
    this.last = performance.now();
  }
}
