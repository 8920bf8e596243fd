import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateCopy } from '../testing/core';
import { countWrites, runTrial, type TrialResult } from '../testing/power-loss';

// A small sweep that CI can afford (each trial is a child process and two
// PGlite starts); `npm run bench:faults` runs hundreds of crash points.
let copy = '';
let base = '';
let writes = { from: 0, to: 0 };
beforeAll(async () => {
  // The migrated cluster each trial copies: the test template's (docs/testing.md) rather than
  // prepareBase(true)'s initdb + migrations, which are not what is tested here (bench:faults uses both).
  copy = await templateCopy();
  base = join(copy, 'pgdata');
  writes = countWrites(base, 'writes', 12);
}, 300_000);
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

function expectSurvived(r: TrialResult): void {
  expect(r.error).toBeUndefined();
  expect(r.reopened).toBe(true);
  expect(r.integrityProblems).toEqual([]);
  expect(r.lostBeforeSync).toEqual([]);
}

describe('power loss (simulated: unsynced writes lost, kept or torn)', () => {
  it('with durable commits, every acknowledged write survives a cut in the middle of the writes', async () => {
    for (const [i, at] of [0.45, 0.8].entries()) {
      const r = await runTrial(base, { scenario: 'writes', seed: 100 + i, crashAtWrite: Math.round(writes.from + (writes.to - writes.from) * at), durableCommits: true, size: 12 });
      expect(r.outcome.crashed).toBe(true);
      // The cut really threw written data away, and some commits had been acknowledged before it.
      expect(r.outcome.rewound.rewound + r.outcome.rewound.torn).toBeGreaterThan(0);
      expect(r.outcome.acked.length).toBeGreaterThan(0);
      expectSurvived(r);
    }
  }, 600_000);

  it('by default, the database opens whole and keeps every commit a later sync covered', async () => {
    const r = await runTrial(base, { scenario: 'writes', seed: 7, crashAtWrite: Math.round(writes.from + (writes.to - writes.from) * 0.7), durableCommits: false, size: 12 });
    expect(r.outcome.crashed).toBe(true);
    expect(r.outcome.acked.length).toBeGreaterThan(0);
    expectSurvived(r);
  }, 600_000);
});
