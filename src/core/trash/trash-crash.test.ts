import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateCopy } from '../testing/core';
import { installEmbeddings } from '../testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../testing/fake-openai/server';
import { prng } from '../testing/synthetic-corpus';
import { checkAfterCrash, killedTrashRun, seedCrashFolder } from '../testing/trash-crash';

// kill -9 mid-delete or mid-restore (docs/trash.md, "Crashes"): every item stays live or in
// the trash, whole, and where its last acknowledged step put it. The bench section
// (bench/faults/sections/trash.ts) runs more trials.
const SEED = 20261203;
const TRIALS = 4;
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeServer();
  installEmbeddings(server, { dimensions: 16 });
});

afterAll(async () => {
  await server?.close();
});

describe('trash under kill -9', () => {
  it(`a kill at a seeded step loses nothing and doubles nothing (seed ${SEED}, ${TRIALS} trials)`, async () => {
    const random = prng(SEED);
    for (let t = 0; t < TRIALS; t++) {
      const dataDir = await templateCopy();
      try {
        const seeded = await seedCrashFolder(dataDir, server.baseURL);
        const killAfter = 1 + Math.floor(random() * 12);
        const run = await killedTrashRun(dataDir, SEED + t, killAfter);
        const check = await checkAfterCrash(dataDir, seeded, run);
        expect({ trial: t, killAfter, ...check }).toEqual({ trial: t, killAfter, items: 9, lost: 0, doubled: 0, changed: 0, misplaced: 0, details: [] });
        // The run did move things: otherwise the check proves nothing.
        expect(run.acks).toBeGreaterThanOrEqual(killAfter);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }, 600_000);
});
