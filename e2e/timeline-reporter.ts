import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

/**
 * Where an e2e run's wall time goes (docs/testing.md, "Sixth round: e2e"): each test's start and end
 * on its worker slot, its fixture and hook set-up (host, page, context), its long waits, and every
 * 5 s the load average and how busy the machine's cores were. Not part of `npm test`; run with
 * `npx playwright test --reporter=list,./e2e/timeline-reporter.ts`. Writes
 * `e2e-artifacts/timeline.json` and prints one line per test and the idle time of each slot.
 */

interface Step {
  title: string;
  category: string;
  start: number;
  ms: number;
}
interface Row {
  title: string;
  file: string;
  slot: number;
  worker: number;
  start: number;
  ms: number;
  status: string;
  steps: Step[];
}
interface Sample {
  t: number;
  load1: number;
  /** Share of all cores busy since the last sample (0–1), from /proc/stat. */
  busy: number | null;
  /** CPU-seconds used by this run's process tree (runner, workers, hosts, browsers) since the last sample. */
  ours: number | null;
}

/** CPU ticks of a process and its descendants, the exited ones counted through their parents (Linux). */
function treeTicks(root: number): number | null {
  try {
    const parent = new Map<number, number>();
    const ticks = new Map<number, number>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parent.set(Number(name), Number(f[1]));
        ticks.set(Number(name), Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
      } catch {
        // gone meanwhile
      }
    }
    let sum = 0;
    for (const [pid, t] of ticks) {
      for (let p: number | undefined = pid; p; p = parent.get(p)) {
        if (p === root) {
          sum += t;
          break;
        }
      }
    }
    return sum;
  } catch {
    return null;
  }
}

function cpuTimes(): { idle: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const n = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    return { idle, total: n.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

// Steps worth seeing: set-up and tear-down, and any single wait or action of 2 s or more.
const KEEP = (s: TestStep) =>
  s.category === 'fixture' || s.category === 'hook' || ((s.category === 'pw:api' || s.category === 'expect' || s.category === 'test.step') && s.duration >= 2000);

export default class TimelineReporter implements Reporter {
  private t0 = Date.now();
  private rows = new Map<TestResult, Row>();
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastCpu = cpuTimes();
  private lastOurs = treeTicks(process.pid);

  printsToStdio(): boolean {
    return false;
  }

  onBegin(): void {
    this.t0 = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), 5000);
    this.timer.unref();
  }

  private sample(): void {
    const now = cpuTimes();
    const prev = this.lastCpu;
    const busy = now && prev && now.total > prev.total ? 1 - (now.idle - prev.idle) / (now.total - prev.total) : null;
    this.lastCpu = now;
    const ours = treeTicks(process.pid);
    const used = ours !== null && this.lastOurs !== null ? (ours - this.lastOurs) / 100 : null;
    this.lastOurs = ours;
    this.samples.push({ t: Date.now() - this.t0, load1: loadavg()[0]!, busy, ours: used });
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    this.rows.set(result, {
      title: test.title,
      file: test.location.file.split('/').pop()!,
      slot: result.parallelIndex,
      worker: result.workerIndex,
      start: result.startTime.getTime() - this.t0,
      ms: 0,
      status: '',
      steps: [],
    });
  }

  onStepEnd(_test: TestCase, result: TestResult, step: TestStep): void {
    const row = this.rows.get(result);
    if (!row || !KEEP(step)) return;
    row.steps.push({ title: step.title, category: step.category, start: step.startTime.getTime() - this.t0, ms: step.duration });
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    const row = this.rows.get(result);
    if (!row) return;
    row.ms = result.duration;
    row.status = result.status;
  }

  onEnd(result: FullResult): void {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    const wall = Date.now() - this.t0;
    const rows = [...this.rows.values()].sort((a, b) => a.start - b.start);
    const dir = join(process.cwd(), 'e2e-artifacts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'timeline.json'), JSON.stringify({ wall, status: result.status, rows, samples: this.samples }, null, 1));

    const s = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
    const out: string[] = [`timeline: ${rows.length} tests, ${s(wall)} s wall`];
    for (const slot of [...new Set(rows.map((r) => r.slot))].sort()) {
      const mine = rows.filter((r) => r.slot === slot);
      let busy = 0;
      let end = 0;
      for (const r of mine) {
        busy += r.ms;
        end = Math.max(end, r.start + r.ms);
      }
      out.push(`slot ${slot}: ${mine.length} tests, in tests ${s(busy)} s, last ends at ${s(end)} s, between/after tests ${s(wall - busy)} s`);
      for (const r of mine) {
        const setup = r.steps.filter((x) => x.category === 'fixture' && x.ms >= 500).map((x) => `${x.title.replace(/^fixture: /, '')} ${(x.ms / 1000).toFixed(1)}`);
        const waits = r.steps.filter((x) => x.category !== 'fixture' && x.category !== 'hook').map((x) => `${x.title.slice(0, 40)} ${(x.ms / 1000).toFixed(1)}`);
        out.push(`  ${s(r.start)} ${s(r.ms)} w${r.worker} ${r.status.padEnd(7)} ${r.file}: ${r.title.slice(0, 60)}${setup.length ? ` | set-up: ${setup.join(', ')}` : ''}${waits.length ? ` | waits: ${waits.join('; ')}` : ''}`);
      }
    }
    const busy = this.samples.filter((x) => x.busy !== null).map((x) => x.busy!);
    if (busy.length) {
      const mean = busy.reduce((a, b) => a + b, 0) / busy.length;
      const loads = this.samples.map((x) => x.load1);
      const ours = this.samples.reduce((a, x) => a + (x.ours ?? 0), 0);
      out.push(`machine: cores busy ${(mean * 100).toFixed(0)} % on average; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; this run's processes ${ours.toFixed(0)} CPU-s`);
      // This run's share of two cores, per 30 s: where its workers left the cores idle.
      const line: string[] = [];
      for (let from = 0; from < wall; from += 30_000) {
        const win = this.samples.filter((x) => x.t > from && x.t <= from + 30_000);
        const cpu = win.reduce((a, x) => a + (x.ours ?? 0), 0);
        line.push(`${Math.round(from / 1000)}s:${((cpu / 60) * 100).toFixed(0)}%`);
      }
      out.push(`this run's use of 2 cores per 30 s: ${line.join(' ')}`);
    }
    process.stdout.write(out.join('\n') + '\n');
  }
}
