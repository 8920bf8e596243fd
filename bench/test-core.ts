// How long a test's core takes to start, by the way its data folder is
// prepared: a fresh initdb, a restored gzip dump (the old test template), or a
// copy of a migrated folder (src/core/testing/template.ts). Prints each
// figure's median over the runs, with the load average (2 shared cores); the
// CPU time (every thread of this process) moves less with the load than the wall time.
//   npm run bench:test-core -- [runs=3]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/core/index';
import { copyTemplate, dataDirTemplate } from '../src/core/testing/template';

const RUNS = Number(process.argv[2] ?? 3);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU time of this process, every thread (the database worker included), in ms. */
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

interface Figure {
  open: number;
  close: number;
  cpu: number;
}

async function timeOpen(prepare: (dir: string) => Promise<{ loadFrom?: Uint8Array }>): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-core-'));
  try {
    const c0 = cpuMs();
    const t0 = performance.now();
    const extra = await prepare(dir);
    const core = await createCore({ dataDir: dir, ...extra });
    const t1 = performance.now();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
    return { open: t1 - t0, close: performance.now() - t1, cpu: cpuMs() - c0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const template = await dataDirTemplate(async (dir) => (await createCore({ dataDir: dir })).close());
const dumpCore = await createCore({ dataDir: join(mkdtempSync(join(tmpdir(), 'hearth-bench-dump-')), 'd') });
const dump = await dumpCore.ctx.db.local!.dump();
await dumpCore.close();

const cases: [string, (dir: string) => Promise<{ loadFrom?: Uint8Array }>][] = [
  ['initdb + migrations', async () => ({})],
  ['gzip dump restored', async () => ({ loadFrom: dump })],
  ['migrated folder copied', async (dir) => (copyTemplate(template, dir), {})],
];
const figures = new Map<string, Record<keyof Figure, number[]>>(cases.map(([n]) => [n, { open: [], close: [], cpu: [] }]));
// Interleaved, so that a change in the machine's load hits every case alike.
for (let i = 0; i < RUNS; i++) {
  for (const [name, prepare] of cases) {
    const r = await timeOpen(prepare);
    const f = figures.get(name)!;
    for (const k of ['open', 'close', 'cpu'] as const) f[k].push(r[k]);
  }
}
console.log(`test core start-up, median of ${RUNS} (load average ${load()}):`);
for (const [name, f] of figures) {
  const ms = (xs: number[]) => `${median(xs).toFixed(0).padStart(6)} ms`;
  console.log(`  ${name.padEnd(24)} open ${ms(f.open)}  close+remove ${ms(f.close)}  CPU (all threads) ${ms(f.cpu)}`);
}
