import { describe, expect, it } from 'vitest';
import { levelWindows } from './memory-bounds';
import { memoryScore } from './score';

const NOW = new Date('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
const daysBefore = (d: Date) => (NOW.getTime() - d.getTime()) / DAY;

describe('levelWindows', () => {
  it('reaches exactly as far back as a row at the bound could still tie the floor', () => {
    const b = { floor: 0.2, text: 0.5, cosine: 0.6, now: NOW };
    const windows = levelWindows(b);
    for (const w of windows) {
      const imp = w.importance;
      // A row inserted at the cutoff, scoring the best an unseen row can: equal to the floor.
      const atVector = memoryScore(b.text, b.cosine, imp, daysBefore(w.sinceVector)).final;
      expect(atVector).toBeCloseTo(b.floor, 6);
      const atText = memoryScore(b.text, null, imp, daysBefore(w.since)).final;
      expect(Math.max(atText, memoryScore(b.text, b.cosine, imp, daysBefore(w.since)).final)).toBeCloseTo(b.floor, 6);
    }
    // Higher importance reaches further back.
    const sinces = windows.map((w) => w.sinceVector.getTime());
    expect([...sinces].sort((x, y) => y - x)).toEqual(sinces);
  });

  it('leaves out levels that cannot reach the floor even today, and everything when nothing is scored yet', () => {
    const w = levelWindows({ floor: 0.5, text: 0.2, cosine: 0.5, now: NOW });
    // 0.3·0.2 + 0.5·0.5 + 0.02·i ≥ 0.5 needs i ≥ 9.5; text-only 0.2 + 0.02·i never does.
    expect(w.map((x) => x.importance)).toEqual([10]);
    expect(levelWindows({ floor: 0, text: 1, cosine: 1, now: NOW })).toEqual([]);
  });

  it('without a query vector only the text formula counts', () => {
    const w = levelWindows({ floor: 0.1, text: 0.3, cosine: null, now: NOW });
    expect(w).toHaveLength(10);
    for (const x of w) expect(x.since.getTime()).toBe(x.sinceVector.getTime());
  });
});
