import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('retry backoff', () => {
  const o = { baseMs: 1000, maxMs: 60_000 };
  it('doubles with each attempt, within ±25 % jitter, up to the ceiling', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, o, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffDelay(3, o, () => 0)).toBe(3000);
    expect(backoffDelay(3, o, () => 0.999999)).toBe(5000);
    expect(backoffDelay(20, o, () => 0.5)).toBe(60_000);
  });
  it('spreads jobs that failed together', () => {
    let seed = 1;
    const rng = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(2, o, rng)));
    expect(delays.size).toBeGreaterThan(40);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(1500);
      expect(d).toBeLessThanOrEqual(2500);
    }
  });
});
