// The power-loss simulation (docs/durability.md): run a workload over CrashIo
// in a child process, cut the power at a chosen write, then reopen the data
// directory as the app would (in a second child) and check it. Each child has
// a deadline: a trial that hangs is reported as a failure, never skipped.
// Used by db/power-loss.test.ts (a small sweep) and bench/faults (the big one).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMigrationsDir, migrate, readMigrations } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { pgliteQueryable } from './pglite-queryable';
import { prng } from './synthetic-corpus';
import { type ChildName, childScript } from './source-build';

export type Scenario = 'writes' | 'ingest' | 'migration';

export interface TrialSpec {
  dir: string;
  scenario: Scenario;
  seed: number;
  /** The write at which the power goes; absent: after the workload. */
  crashAtWrite?: number;
  durableCommits: boolean;
  /** Writes: statements; ingest: batches of 20 chunks. */
  size: number;
}

export interface Acked {
  key: string;
  /** WAL syncs completed when the commit was acknowledged. */
  walSyncs: number;
}

export interface TrialOutcome {
  acked: Acked[];
  walSyncsAtCut: number;
  writes: number;
  /** Writes made while opening, before the workload's first statement. */
  writesAtStart: number;
  crashed: boolean;
  rewound: { rewound: number; torn: number; kept: number };
  /** The workload failed with the power still on (a finding in itself). */
  workloadError?: string;
}

/** What the reopening child reports. */
export interface CheckOutcome {
  keys: string[];
  problems: string[];
  error?: string;
}

export interface TrialResult {
  spec: TrialSpec;
  outcome: TrialOutcome;
  reopened: boolean;
  /** Which half of the trial passed its deadline, if one did: a hang is a failure. */
  hung?: 'workload' | 'reopen';
  integrityProblems: string[];
  /** Acknowledged commits a later WAL sync covered (all of them with durableCommits) that are gone. */
  lostBeforeSync: string[];
  /** Acknowledged after the last WAL sync and gone: allowed without durableCommits. */
  lostAfterSync: number;
  error?: string;
}

export interface TrialOptions {
  /** Deadline of each half (the workload, the reopening) in ms; default 180 s (a loaded machine is slow). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 180_000;

/** A data directory to copy for each trial: migrated (writes, ingest) or just created (migration). */
export async function prepareBase(migrated: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-powerloss-base-'));
  const { pg } = await openPglite(dir);
  if (migrated) await migrate(pgliteQueryable(pg), readMigrations(findMigrationsDir()));
  await pg.close();
  return dir;
}

type ChildResult<T> = { ok: true; value: T } | { ok: false; hung: boolean; why: string };

/** Runs a script of this folder with a JSON argument; its one line starting with `{"<key>"` is the answer. */
function runScript<T>(script: ChildName, arg: unknown, key: string, timeoutMs: number): ChildResult<T> {
  const child = spawnSync(process.execPath, [childScript(script), JSON.stringify(arg)], {
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = (child.stdout ?? '').split('\n').find((l) => l.startsWith(`{"${key}"`));
  if (line) return { ok: true, value: JSON.parse(line) as T };
  const hung = child.signal === 'SIGKILL' || (child.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  const why = hung
    ? `${script} did not finish within ${Math.round(timeoutMs / 1000)} s`
    : `${script} gave no answer (status ${child.status}): ${(child.stderr ?? '').slice(-2000)}`;
  return { ok: false, hung, why };
}

/** The writes of a run with no crash: opening (from) and the whole run with its close (to). */
export function countWrites(base: string, scenario: Scenario, size: number, options: TrialOptions = {}): { from: number; to: number } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-powerloss-count-'));
  try {
    cpSync(base, dir, { recursive: true });
    const r = runScript<TrialOutcome>('power-loss-child', { dir, scenario, seed: 1, durableCommits: false, size }, 'acked', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if (!r.ok) throw new Error(`counting the writes of a ${scenario} run failed: ${r.why}`);
    if (r.value.workloadError) throw new Error(`a ${scenario} run failed with no power cut: ${r.value.workloadError}`);
    return { from: r.value.writesAtStart, to: r.value.writes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Seeded crash points spread evenly over a whole run: a tenth of them while
 * the database opens, the rest over the workload and its close, one in each
 * equal slice (so they never bunch up), and the last after the run.
 */
export function crashPoints(writes: { from: number; to: number }, count: number, seed: number): number[] {
  const random = prng(seed);
  const spread = (lo: number, hi: number, n: number) =>
    Array.from({ length: n }, (_, k) => lo + Math.floor(((k + random()) * (hi - lo + 1)) / n));
  const inside = Math.max(0, count - 1);
  const opening = writes.from > 0 ? Math.min(inside, Math.round(inside * 0.1)) : 0;
  return [...spread(1, writes.from, opening), ...spread(writes.from + 1, writes.to, inside - opening), writes.to + 1];
}

export async function runTrial(base: string, spec: Omit<TrialSpec, 'dir'>, options: TrialOptions = {}): Promise<TrialResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-powerloss-'));
  const full: TrialSpec = { ...spec, dir };
  const failed = (why: string, hung?: 'workload' | 'reopen', outcome?: TrialOutcome): TrialResult => ({
    spec: full,
    outcome: outcome ?? { acked: [], walSyncsAtCut: 0, writes: 0, writesAtStart: 0, crashed: false, rewound: { rewound: 0, torn: 0, kept: 0 } },
    reopened: false,
    ...(hung ? { hung } : {}),
    integrityProblems: [],
    lostBeforeSync: [],
    lostAfterSync: 0,
    error: why,
  });
  try {
    cpSync(base, dir, { recursive: true });
    const run = runScript<TrialOutcome>('power-loss-child', full, 'acked', timeoutMs);
    if (!run.ok) return failed(run.why, run.hung ? 'workload' : undefined);
    const outcome = run.value;
    const checked = runScript<{ check: CheckOutcome }>('power-loss-check', { dir, scenario: spec.scenario }, 'check', timeoutMs);
    if (!checked.ok) return failed(checked.why, checked.hung ? 'reopen' : undefined, outcome);
    const present = checked.value.check;
    if (present.error) return failed(`reopening failed: ${present.error}`, undefined, outcome);
    const keys = new Set(present.keys);
    const lostBeforeSync: string[] = [];
    let lostAfterSync = 0;
    for (const a of outcome.acked) {
      if (keys.has(a.key)) continue;
      if (spec.durableCommits || a.walSyncs < outcome.walSyncsAtCut) lostBeforeSync.push(a.key);
      else lostAfterSync++;
    }
    return {
      spec: full,
      outcome,
      reopened: true,
      integrityProblems: present.problems,
      lostBeforeSync,
      lostAfterSync,
      ...(outcome.workloadError ? { error: `the workload failed with the power on: ${outcome.workloadError}` } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
