// Backup and restore of a database with N memories (with vectors): time, size,
// and the longest pause other API calls (reads, and every fourth call a write)
// see while the backup runs. `--memories N` (default 10k; 2k with --quick).
// `--quiet-ms MS` (default 5000): how long the app sits unused between the load
// and the backup, as it would before a daily backup; 0 backs up straight after
// the load, before the idle checkpoint (src/core/db/idle-checkpoint.ts) can run.
import { type ImportBatch, importBatches } from '../../../src/core/memories/import';
import { makeTestCore } from '../../../src/core/testing/core';
import { clusteredSpace, syntheticMemories } from '../../../src/core/testing/synthetic-corpus';
import { walSinceCheckpoint } from '../../../src/core/db/idle-checkpoint';
import type { FaultSection } from '../index';

export default {
  name: 'backup and restore',
  async run({ quick, flags }) {
    const n = Number(flags.memories ?? (quick ? 2_000 : 10_000));
    const core = await makeTestCore();
    try {
      const now = new Date();
      const batches: ImportBatch[] = [{ persona: 'main', rows: [...syntheticMemories({ n, seed: 7, now, space: clusteredSpace(7, 512, 24) })] }];
      await importBatches(core.ctx, batches);
      const quietMs = Number(flags['quiet-ms'] ?? 5_000);
      const logAfterLoad = await walSinceCheckpoint(core.ctx.db);
      await new Promise((r) => setTimeout(r, quietMs));
      const logAtBackup = await walSinceCheckpoint(core.ctx.db);

      // Other calls go on while the backup runs: each waits for the previous, as a UI would.
      let running = true;
      let longest = 0;
      let calls = 0;
      let writes = 0;
      const pauses: number[] = [];
      const probe = (async () => {
        while (running) {
          const t = performance.now();
          if (calls % 4 === 3) {
            await core.call('memories.write', { persona: 'main', content: `written during the backup ${writes}` });
            writes++;
          } else {
            await core.call('memories.list', { persona: 'main', limit: 20 });
          }
          const ms = performance.now() - t;
          pauses.push(ms);
          longest = Math.max(longest, ms);
          calls++;
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const t0 = performance.now();
      const b = await core.call('backups.create', {});
      const backupMs = performance.now() - t0;
      running = false;
      await probe;

      const t1 = performance.now();
      await core.call('backups.restore', { id: b.id });
      const restoreMs = performance.now() - t1;
      const back = (await core.call('backups.list', {})).find((x) => x.id === b.id)!;
      return {
        memories: n,
        'quiet before the backup ms': quietMs,
        'log since last checkpoint after the load MB': Number((logAfterLoad / 1024 / 1024).toFixed(1)),
        'log since last checkpoint when the backup started MB': Number((logAtBackup / 1024 / 1024).toFixed(1)),
        'backup ms (write + verify)': Math.round(backupMs),
        'backup MB': Number((b.bytes / 1024 / 1024).toFixed(1)),
        verified: String(b.verified),
        'memories counted in backup': b.counts.memories,
        'longest pause of other API calls during backup ms': Math.round(longest),
        'API calls during backup': calls,
        'of them writes': writes,
        'p95 of those calls ms': Math.round(pauses.sort((a, b) => a - b)[Math.floor(pauses.length * 0.95)] ?? 0),
        'restore ms (safety backup + check + swap)': Math.round(restoreMs),
        'memories after restore': back.counts.memories,
      };
    } finally {
      await core.dispose();
    }
  },
} satisfies FaultSection;
