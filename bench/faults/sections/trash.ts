// kill -9 of a Hearth process while it moves items into and out of the trash (docs/trash.md,
// "Crashes"): after reopening, every item must be live or in the trash, whole, never both, never
// neither. Target: 0 lost, 0 doubled, 0 changed, 0 misplaced.
import { rmSync } from 'node:fs';
import { templateCopy } from '../../../src/core/testing/core';
import { installEmbeddings } from '../../../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../../../src/core/testing/fake-openai/server';
import { prng } from '../../../src/core/testing/synthetic-corpus';
import { checkAfterCrash, killedTrashRun, seedCrashFolder } from '../../../src/core/testing/trash-crash';
import type { FaultSection } from '../index';

const SEED = 20261203;

const section: FaultSection = {
  name: 'trash',
  async run({ quick, trials }) {
    const n = trials ?? (quick ? 3 : 20);
    const random = prng(SEED);
    const server = await startFakeServer();
    installEmbeddings(server, { dimensions: 16 });
    const totals = { acknowledged: 0, items: 0, lost: 0, doubled: 0, changed: 0, misplaced: 0 };
    try {
      for (let t = 0; t < n; t++) {
        const dataDir = await templateCopy();
        try {
          const seeded = await seedCrashFolder(dataDir, server.baseURL);
          const run = await killedTrashRun(dataDir, SEED + t, 1 + Math.floor(random() * 30));
          const c = await checkAfterCrash(dataDir, seeded, run);
          totals.acknowledged += run.acks;
          totals.items += c.items;
          totals.lost += c.lost;
          totals.doubled += c.doubled;
          totals.changed += c.changed;
          totals.misplaced += c.misplaced;
          process.stderr.write(`  trash ${t + 1}/${n}: acknowledged ${run.acks}, lost ${c.lost}, doubled ${c.doubled}${c.details.length ? ` (${c.details.join('; ')})` : ''}\n`);
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    } finally {
      await server.close();
    }
    return { trials: n, seed: SEED, ...totals };
  },
};
export default section;
