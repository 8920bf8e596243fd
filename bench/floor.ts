// Measuring helpers shared by the benches: the exact-search floor and the
// core thread's responsiveness.
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Cosine top-k over unit vectors by a plain scan: the floor for exact vector search. */
export function bruteForceTopK(vectors: readonly Float32Array[], q: Float32Array, k: number): number[] {
  const best: { i: number; s: number }[] = [];
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    let s = 0;
    for (let d = 0; d < q.length; d++) s += v[d]! * q[d]!;
    if (best.length < k || s > best[best.length - 1]!.s) {
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.i);
}

export interface LoopGap {
  /** The longest time between two ticks of a 1 ms interval, minus that 1 ms. */
  maxGapMs: number;
  /** perf_hooks' event-loop delay histogram. */
  delayP99Ms: number;
  delayMaxMs: number;
}

/**
 * Watches the calling thread (the core thread, which serves the UI) until
 * stop(): a 1 ms interval's largest gap and monitorEventLoopDelay.
 */
export function loopGapMonitor(): { stop(): LoopGap } {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    maxGap = Math.max(maxGap, t - last - 1);
    last = t;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      h.disable();
      const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
      return { maxGapMs: Number(maxGap.toFixed(1)), delayP99Ms: ms(h.percentile(99)), delayMaxMs: ms(h.max) };
    },
  };
}
