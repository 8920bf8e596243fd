// Where the unit suite's CPU goes, by kind: database workers (PGlite), the
// built-in embedding model's workers, the parse workers, child processes (hosts,
// MCP servers, crash and power-loss children), template copies, and what is left
// on the test processes' main threads (the tests' own work, the core, imports).
// Runs vitest once (all files, or the ones given) with a recorder loaded in each
// test process (setup.ts); prints a table with the load average.
//   node bench/unit-budget/run.mjs [vitest file filters...]
// CPU-s are user + sys from /proc (threads polled every 0.1 s, so a thread's last
// tenth of a second may be missed). The whole is /usr/bin/time's, the vitest
// parent process included.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const files = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'hearth-budget-'));
const out = join(dir, 'events.jsonl');
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();
const t0 = Date.now();
const r = spawnSync(
  '/usr/bin/time',
  ['-f', 'TIME %U %S %e', 'npx', 'vitest', 'run', '--config', 'bench/unit-budget/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${join(dir, 'report.json')}`, ...files],
  { stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, HEARTH_BUDGET_OUT: out }, encoding: 'utf8' },
);
const wall = (Date.now() - t0) / 1000;
const loadAfter = load();
process.stderr.write(r.stderr.split('\n').filter((l) => !l.startsWith('TIME ')).join('\n'));
const [, user, sys] = (r.stderr.match(/TIME ([\d.]+) ([\d.]+) ([\d.]+)/) ?? []).map(Number);
const total = user + sys;

const events = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const byKind = new Map();
const add = (kind, cpu, n = 1) => {
  const k = byKind.get(kind) ?? { n: 0, cpu: 0 };
  k.n += n;
  k.cpu += cpu;
  byKind.set(kind, k);
};
const lastProcess = new Map();
const perFile = new Map();
const fileAdd = (file, key, cpu) => {
  const f = perFile.get(file) ?? {};
  f[key] = (f[key] ?? 0) + cpu;
  perFile.set(file, f);
};
const children = new Map();
for (const e of events) {
  if (e.type === 'thread') {
    add(e.kind, e.cpu);
    fileAdd(e.file, e.kind, e.cpu);
  } else if (e.type === 'template-copy') add('template copy (main thread)', e.cpu);
  else if (e.type === 'child') children.set(`${e.how} ${e.what}`, (children.get(`${e.how} ${e.what}`) ?? 0) + 1);
  else if (e.type === 'process') lastProcess.set(e.pid, e);
}
const helperNames = {};
let main = 0;
let helpers = 0;
let childCpu = 0;
let childCount = 0;
for (const c of children.values()) childCount += c;
for (const [pid, p] of lastProcess) {
  for (const t of p.live) add(t.kind, t.cpu);
  const threads = events.filter((e) => e.pid === pid && e.type === 'thread').reduce((s, e) => s + e.cpu, 0) + p.live.reduce((s, t) => s + t.cpu, 0);
  main += p.main;
  for (const [k, v] of Object.entries(p.helpers ?? {})) helperNames[k] = (helperNames[k] ?? 0) + v;
  helpers += p.all - p.main - threads;
  childCpu += p.children;
}
const copy = byKind.get('template copy (main thread)')?.cpu ?? 0;
const rows = [...byKind].filter(([k]) => !k.startsWith('template')).map(([k, v]) => [k, v.n, v.cpu]);
rows.push(['child processes', childCount, childCpu]);
rows.push(['template copies (on main threads)', byKind.get('template copy (main thread)')?.n ?? 0, copy]);
rows.push(['test processes, main threads (tests, core, imports), copies excluded', lastProcess.size, main - copy]);
rows.push(['test processes, V8/libuv helper threads (GC, compiler, fs)', '', helpers]);
const accounted = rows.reduce((s, r) => s + r[2], 0);
rows.push(['vitest parent + npx + rest', '', total - accounted]);
console.log(`\nunit budget: ${files.length ? files.join(' ') : 'whole suite'}; load ${loadBefore} -> ${loadAfter}; wall ${wall.toFixed(0)} s`);
console.log(`total ${total.toFixed(1)} CPU-s (user ${user} + sys ${sys})`);
console.log('| kind | count | CPU-s | per one | share |\n|---|---|---|---|---|');
for (const [k, n, cpu] of rows.sort((a, b) => b[2] - a[2]))
  console.log(`| ${k} | ${n} | ${cpu.toFixed(1)} | ${typeof n === 'number' && n ? (cpu / n).toFixed(2) : ''} | ${((100 * cpu) / total).toFixed(0)} % |`);
console.log(`\nlive helper threads at the end, by name (CPU-s): ${Object.entries(helperNames).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
console.log('\nchild processes by script:');
for (const [k, n] of [...children].sort((a, b) => b[1] - a[1])) console.log(`  ${n} x ${k}`);
console.log('\nthreads per file (CPU-s), top 25 by worker CPU:');
const top = [...perFile].map(([f, v]) => [f, v, Object.values(v).reduce((s, x) => s + x, 0)]).sort((a, b) => b[2] - a[2]).slice(0, 25);
for (const [f, v, s] of top) console.log(`  ${s.toFixed(1).padStart(6)} ${f} ${Object.entries(v).map(([k, x]) => `${k} ${x.toFixed(1)}`).join(', ')}`);
console.log(`\nevents: ${out}; vitest report: ${join(dir, 'report.json')}`);
process.exit(r.status ?? 1);
