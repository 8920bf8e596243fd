// A first launch's database, in process: opening a new data folder by initdb
// and every migration, against copying the app's migrated, empty template
// (src/core/db/pgdata-template.ts), alternately so both meet the same load.
// Prints each and the medians with the load average; the whole start to a
// usable page is bench/startup.mjs.
//   npx tsx bench/first-launch.ts [--runs 3]
import '../src/core/private-umask';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/core';
import { appTemplate, buildAppTemplate } from '../src/core/db/pgdata-template';

const i = process.argv.indexOf('--runs');
const RUNS = i >= 0 ? Number(process.argv[i + 1]) : 3;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const template =
  appTemplate() ??
  (await buildAppTemplate(async (dataDir) => {
    await (await createCore({ dataDir, dailyBackups: false })).close();
  }));
const times: Record<'initdb' | 'template', number[]> = { initdb: [], template: [] };
for (let r = 0; r < RUNS; r++) {
  for (const way of r % 2 ? (['template', 'initdb'] as const) : (['initdb', 'template'] as const)) {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-first-launch-'));
    const t = performance.now();
    const core = await createCore({ dataDir: dir, dailyBackups: false, pgdataTemplate: way === 'template' ? template : null });
    const ms = performance.now() - t;
    await core.close();
    rmSync(dir, { recursive: true, force: true });
    times[way].push(ms);
    console.log(`run ${r + 1}, ${way}: core open on a new folder ${(ms / 1000).toFixed(2)} s; load average ${load()}`);
  }
}
console.log(
  `median of ${RUNS}: initdb + migrations ${(median(times.initdb) / 1000).toFixed(2)} s, template copy ${(median(times.template) / 1000).toFixed(2)} s; load average ${load()}`,
);
