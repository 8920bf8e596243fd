// Loaded into every vitest worker by bench/unit-budget/run.mjs (never by the
// normal test run): records where the unit suite's CPU goes, without touching
// the code under test. Worker threads are told apart by who started them (the
// stack of `new Worker`) and their CPU read from /proc per Linux thread; child
// processes' CPU comes from this process's own counters of reaped children.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { createRequire } from 'node:module';
import { afterAll, beforeAll } from 'vitest';

const require = createRequire(import.meta.url);
const OUT = process.env.HEARTH_BUDGET_OUT!;
const TICK_S = 0.01; // CLK_TCK 100 on Linux

interface Tracked {
  kind: string;
  file: string;
  tid: number;
  cpu: number;
}
interface State {
  file: string;
  tracked: Tracked[];
  poll: NodeJS.Timeout;
  events: Record<string, number>;
}
const g = globalThis as unknown as { __hearthBudget?: State };

/** utime + stime of a thread (or of the process, with children's when `children`), in s; null when gone. */
function statCpu(path: string, children = false): number | null {
  try {
    const s = readFileSync(path, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // fields after the name: state=0 ... utime=11 stime=12 cutime=13 cstime=14
    const own = Number(f[11]) + Number(f[12]);
    return (children ? Number(f[13]) + Number(f[14]) : own) * TICK_S;
  } catch {
    return null;
  }
}
const tids = () => new Set(readdirSync('/proc/self/task').map(Number));

function record(obj: object): void {
  appendFileSync(OUT, JSON.stringify({ pid: process.pid, ...obj }) + '\n');
}

function readAll(st: State): void {
  for (const t of st.tracked) {
    const c = statCpu(`/proc/self/task/${t.tid}/stat`);
    if (c !== null) t.cpu = c;
  }
}
function flushGone(st: State): void {
  readAll(st);
  const live = tids();
  for (const t of st.tracked.splice(0)) {
    if (live.has(t.tid)) st.tracked.push(t);
    else record({ type: 'thread', kind: t.kind, file: t.file, cpu: t.cpu });
  }
}

/** CPU of this process's other live threads (V8's platform workers, libuv's pool), by thread name. */
function helperThreads(st: State): Record<string, number> {
  const mine = new Set([process.pid, ...st.tracked.map((t) => t.tid)]);
  const by: Record<string, number> = {};
  for (const tid of tids()) {
    if (mine.has(tid)) continue;
    const cpu = statCpu(`/proc/self/task/${tid}/stat`);
    let name = '?';
    try {
      name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    } catch {}
    by[name] = (by[name] ?? 0) + (cpu ?? 0);
  }
  return by;
}

function install(): State {
  const st: State = { file: '', tracked: [], events: {}, poll: setInterval(() => readAll(st), 100) };
  st.poll.unref();
  const wt = require('node:worker_threads') as typeof import('node:worker_threads');
  const Original = wt.Worker;
  class Counted extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      const before = tids();
      super(...args);
      const stack = new Error().stack ?? '';
      const kind = /embeddings\/local(-pool)?\.ts/.test(stack) ? 'embed-worker' : /db\/client\.ts/.test(stack) ? 'db-worker' : /parse\/parser\.ts/.test(stack) ? 'parse-worker' : 'other-thread';
      const fresh = [...tids()].filter((t) => !before.has(t));
      for (const tid of fresh.slice(-1)) st.tracked.push({ kind, file: st.file, tid, cpu: 0 });
      if (fresh.length === 0) record({ type: 'untracked', kind, file: st.file });
      const terminate = this.terminate.bind(this);
      this.terminate = () => (readAll(st), terminate());
    }
  }
  wt.Worker = Counted as typeof Original;
  const cp = require('node:child_process') as typeof import('node:child_process') & Record<string, unknown>;
  for (const name of ['spawn', 'fork', 'spawnSync', 'execFile', 'exec', 'execFileSync', 'execSync']) {
    const fn = cp[name] as (...a: unknown[]) => unknown;
    cp[name] = function (this: unknown, ...a: unknown[]) {
      record({ type: 'child', how: name, file: st.file, what: String(a[1] && Array.isArray(a[1]) ? a[1][0] : a[0]).slice(-60) });
      return fn.apply(this, a);
    };
  }
  const fs = require('node:fs') as typeof import('node:fs');
  const cpSync = fs.cpSync;
  fs.cpSync = ((src: string, ...rest: unknown[]) => {
    const t0 = statCpu('/proc/thread-self/stat')!;
    const w0 = performance.now();
    (cpSync as (...a: unknown[]) => void)(src, ...rest);
    if (String(src).includes('hearth-template-')) record({ type: 'template-copy', file: st.file, cpu: statCpu('/proc/thread-self/stat')! - t0, ms: performance.now() - w0 });
  }) as typeof fs.cpSync;
  syncBuiltinESMExports();
  return st;
}

const st = (g.__hearthBudget ??= install());

// eslint-disable-next-line no-empty-pattern -- vitest requires a destructuring pattern here
beforeAll(({}, suite) => {
  flushGone(st);
  st.file = (suite as { filepath?: string }).filepath?.replace(/^.*?\/(src|bench)\//, '$1/') ?? '?';
});
afterAll(() => {
  flushGone(st);
  // Cumulative per process: the runner keeps the last line of each pid.
  record({
    type: 'process',
    main: statCpu(`/proc/self/task/${process.pid}/stat`),
    all: statCpu('/proc/self/stat'),
    children: statCpu('/proc/self/stat', true),
    live: st.tracked.map((t) => ({ kind: t.kind, cpu: t.cpu })),
    helpers: helperThreads(st),
  });
});
