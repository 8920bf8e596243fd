// What durable commits cost: single memories.write p50/p95 at 50k memories (--quick: 5k) with
// durableCommits off and on, medians of 3 runs of 100 writes, next to the figure before fsync was
// on (4.1 / 6.8 ms, README, measured by bench:recall). Memories are stored without vectors to keep
// the set-up short; the job runner serves no queue, so only the write itself is timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../../src/core/index';
import { percentile, timed } from '../../latency-stats';
import type { FaultSection } from '../index';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (x: number) => Math.round(x * 10) / 10;

const section: FaultSection = {
  name: 'durability',
  async run({ quick }) {
    const n = quick ? 5000 : 50_000;
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-durability-'));
    try {
      const core = await createCore({ dataDir, queues: {} });
      try {
        await core.ctx.db.exec(
          `INSERT INTO memories (persona, content, day, importance)
           SELECT 'main', 'memory ' || g || ' about ' || md5(g::text) || ' ' || repeat('words ', 20), '2026-01-01', 1 + g % 10
             FROM generate_series(1, ${n}) g`,
        );
        const out: Record<string, number | string> = { memories: n, before_fsync_p50_p95_ms: '4.1 / 6.8' };
        for (const durable of [false, true]) {
          await core.call('settings.set', { durableCommits: durable });
          const p50s: number[] = [];
          const p95s: number[] = [];
          const before = await core.ctx.db.local!.syncCounts();
          for (let run = 0; run < 3; run++) {
            const ms: number[] = [];
            for (let i = 0; i < 100; i++) {
              ms.push((await timed(() => core.call('memories.write', { persona: 'main', content: `durability ${durable} ${run} ${i}` }))).ms);
            }
            p50s.push(percentile(ms, 50));
            p95s.push(percentile(ms, 95));
          }
          const after = await core.ctx.db.local!.syncCounts();
          const key = durable ? 'durable_commits' : 'default';
          out[`${key}_p50_p95_ms`] = `${f1(median(p50s))} / ${f1(median(p95s))}`;
          out[`${key}_blocking_syncs_per_write`] = f1(((after?.blocking ?? 0) - (before?.blocking ?? 0)) / 300);
          out[`${key}_load`] = loadavg().map((x) => x.toFixed(1)).join(' ');
        }
        return out;
      } finally {
        await core.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
export default section;
