// Power-loss crash points over writes, an ingest-shaped bulk load and the migrations, with
// durableCommits on and off (docs/durability.md). Targets: 0 integrity failures, 0 reopen
// failures, 0 hangs, 0 acknowledged-before-sync lost. `--point-timeout S`: each half of a
// trial (the workload, the reopening) must finish within S seconds (default 180) or it
// counts as a hang.
import { rmSync } from 'node:fs';
import { countWrites, crashPoints, prepareBase, runTrial, type Scenario } from '../../../src/core/testing/power-loss';
import type { FaultSection } from '../index';

const section: FaultSection = {
  name: 'power-loss',
  async run({ quick, trials, flags }) {
    const total = trials ?? (quick ? 6 : 200);
    const timeoutMs = Number(flags['point-timeout'] ?? 180) * 1000;
    const plan: { scenario: Scenario; share: number; size: number }[] = [
      { scenario: 'writes', share: 0.4, size: quick ? 12 : 40 },
      { scenario: 'ingest', share: 0.3, size: quick ? 3 : 6 },
      { scenario: 'migration', share: 0.3, size: 0 },
    ];
    const migrated = await prepareBase(true);
    const fresh = await prepareBase(false);
    const f = { crash_points: 0, reopened: 0, hangs: 0, other_failures: 0, integrity_failures: 0, acknowledged: 0, acknowledged_before_sync_lost: 0, lost_after_last_sync_allowed: 0, writes_rewound: 0, writes_torn: 0, writes_kept: 0 };
    const failures: string[] = [];
    try {
      for (const [i, p] of plan.entries()) {
        const base = p.scenario === 'migration' ? fresh : migrated;
        const n = i === plan.length - 1 ? total - f.crash_points : Math.max(1, Math.round(total * p.share));
        const writes = countWrites(base, p.scenario, p.size, { timeoutMs });
        const points = crashPoints(writes, n, 1000 + i);
        process.stderr.write(`  power-loss ${p.scenario}: ${writes.from} writes to open, ${writes.to} in all; crash points ${points.join(' ')}\n`);
        for (const [j, at] of points.entries()) {
          const durableCommits = j % 2 === 0;
          const r = await runTrial(base, { scenario: p.scenario, seed: at * 31 + j, crashAtWrite: at, durableCommits, size: p.size }, { timeoutMs });
          f.crash_points++;
          f.acknowledged += r.outcome.acked.length;
          f.writes_rewound += r.outcome.rewound.rewound;
          f.writes_torn += r.outcome.rewound.torn;
          f.writes_kept += r.outcome.rewound.kept;
          if (r.reopened) f.reopened++;
          if (r.hung) f.hangs++;
          else if (r.error) f.other_failures++;
          if (r.integrityProblems.length) f.integrity_failures++;
          f.acknowledged_before_sync_lost += r.lostBeforeSync.length;
          f.lost_after_last_sync_allowed += r.lostAfterSync;
          const ok = r.reopened && !r.error && !r.integrityProblems.length && !r.lostBeforeSync.length;
          if (!ok) {
            failures.push(`${p.scenario} at write ${at} (durable ${durableCommits}): ${r.hung ? `hung in ${r.hung}: ` : ''}${r.error ?? ''} ${r.integrityProblems.join('; ')} lost ${r.lostBeforeSync.join(',')}`);
          }
          process.stderr.write(`  power-loss ${p.scenario} ${j + 1}/${points.length}: crash at write ${at}, acked ${r.outcome.acked.length}, ok ${ok}${r.hung ? ` (HUNG in ${r.hung})` : ''}\n`);
        }
      }
    } finally {
      rmSync(migrated, { recursive: true, force: true });
      rmSync(fresh, { recursive: true, force: true });
    }
    return { ...f, failures: failures.slice(0, 5).join(' | ') || 'none' };
  },
};
export default section;
