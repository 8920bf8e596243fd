// Backup and restore of a database with N memories (with vectors): time, size,
// and the longest pause other API calls (reads, and every fourth call a write)
// see while the backup runs. `--memories N` (default 10k; 2k with --quick).
// `--quiet-ms MS` (default 5000): how long the app sits unused between the load
// and the backup, as it would before a daily backup; 0 backs up straight after
// the load, before the idle checkpoint and vacuum (src/core/db/idle-*.ts) can run.
// The same calls without a backup are timed right after the quiet, for comparison.
import { type ImportBatch, importBatches } from '../../../src/core/memories/import';
import { makeTestCore, type TestCore } from '../../../src/core/testing/core';
import { clusteredSpace, syntheticMemories } from '../../../src/core/testing/synthetic-corpus';
import { walSinceCheckpoint } from '../../../src/core/db/idle-checkpoint';
import type { FaultSection } from '../index';

const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

function summarise(ms: number[]): { longest: number; p95: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { longest: Math.round(sorted.at(-1) ?? 0), p95: Math.round(sorted[Math.floor(sorted.length * 0.95)] ?? 0) };
}

/** Other calls, each after the previous as a UI makes them: mostly lists, every fourth a write. */
function probeCalls(core: TestCore) {
  let running = true;
  let calls = 0;
  let writes = 0;
  const pauses: number[] = [];
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      if (calls % 4 === 3) {
        await core.call('memories.write', { persona: 'main', content: `written during the backup ${writes}` });
        writes++;
      } else {
        await core.call('memories.list', { persona: 'main', limit: 20 });
      }
      pauses.push(performance.now() - t);
      calls++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { pauses, calls, writes };
    },
  };
}

export default {
  name: 'backup and restore',
  async run({ quick, flags }) {
    const n = Number(flags.memories ?? (quick ? 2_000 : 10_000));
    const core = await makeTestCore();
    try {
      const now = new Date();
      const batches: ImportBatch[] = [{ persona: 'main', rows: [...syntheticMemories({ n, seed: 7, now, space: clusteredSpace(7, 512, 24) })] }];
      await importBatches(core.ctx, batches);
      // Use since the last checkpoint: the bulk load ends with one (it restarts the database), so a
      // fifth of the memories is edited, as days of use would, leaving pages and log for the next one.
      await core.ctx.db.query(`UPDATE memories SET updated_at = now() WHERE persona = 'main' AND seq % 5 = 0`);
      const logAfterUse = await walSinceCheckpoint(core.ctx.db);

      // Time unused, as before a daily backup: the idle checkpoint and vacuum (src/core/db/idle-*.ts) run in it.
      const quietMs = Number(flags['quiet-ms'] ?? 5_000);
      await new Promise((r) => setTimeout(r, quietMs));
      const logAtBackup = await walSinceCheckpoint(core.ctx.db);
      const upkeep = (
        await core.ctx.db.query<{ vacuums: number; analyzes: number }>(
          `SELECT (vacuum_count + autovacuum_count)::int AS vacuums, (analyze_count + autoanalyze_count)::int AS analyzes
           FROM pg_stat_user_tables WHERE relname = 'memories'`,
        )
      ).rows[0];

      // The same calls for a while right before the backup: what they cost without one.
      const warm = probeCalls(core);
      await new Promise((r) => setTimeout(r, 5_000));
      const before = summarise((await warm.stop()).pauses);

      const during = probeCalls(core);
      const t0 = performance.now();
      const b = await core.call('backups.create', {});
      const backupMs = performance.now() - t0;
      const { pauses, calls, writes } = await during.stop();
      const inBackup = summarise(pauses);

      const t1 = performance.now();
      await core.call('backups.restore', { id: b.id });
      const restoreMs = performance.now() - t1;
      const back = (await core.call('backups.list', {})).find((x) => x.id === b.id)!;
      return {
        memories: n,
        'log since last checkpoint after a fifth was edited MB': mb(logAfterUse),
        'quiet before the backup ms': quietMs,
        'log since last checkpoint when the backup started MB': mb(logAtBackup),
        'idle vacuums / analyzes of memories before the backup': `${upkeep?.vacuums ?? 0} / ${upkeep?.analyzes ?? 0}`,
        'same calls without a backup: longest ms': before.longest,
        'same calls without a backup: p95 ms': before.p95,
        'backup ms (write + verify)': Math.round(backupMs),
        'backup MB': Number((b.bytes / 1024 / 1024).toFixed(1)),
        verified: String(b.verified),
        'memories counted in backup': b.counts.memories,
        'longest pause of other API calls during backup ms': inBackup.longest,
        'API calls during backup': calls,
        'of them writes': writes,
        'p95 of those calls ms': inBackup.p95,
        'restore ms (safety backup + check + swap)': Math.round(restoreMs),
        'memories after restore': back.counts.memories,
      };
    } finally {
      await core.dispose();
    }
  },
} satisfies FaultSection;
