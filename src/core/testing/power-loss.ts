// The power-loss simulation (docs/durability.md): run a workload over CrashIo
// in a child process, cut the power at a chosen write, then reopen the data
// directory as the app would and check it. Used by db/power-loss.test.ts (a
// small sweep) and bench/faults (the big one).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkIntegrity } from '../db/integrity';
import { findMigrationsDir, migrate, readMigrations } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { pgliteQueryable } from './pglite-queryable';
import { prng } from './synthetic-corpus';

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
}

export interface TrialResult {
  spec: TrialSpec;
  outcome: TrialOutcome;
  reopened: boolean;
  integrityProblems: string[];
  /** Acknowledged commits a later WAL sync covered (all of them with durableCommits) that are gone. */
  lostBeforeSync: string[];
  /** Acknowledged after the last WAL sync and gone: allowed without durableCommits. */
  lostAfterSync: number;
  error?: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** A data directory to copy for each trial: migrated (writes, ingest) or just created (migration). */
export async function prepareBase(migrated: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-powerloss-base-'));
  const { pg } = await openPglite(dir);
  if (migrated) await migrate(pgliteQueryable(pg), readMigrations(findMigrationsDir()));
  await pg.close();
  return dir;
}

function runChild(spec: TrialSpec): TrialOutcome {
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'power-loss-child.ts'), JSON.stringify(spec)], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('{"acked"'));
  if (!line) throw new Error(`power-loss child gave no outcome (status ${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line) as TrialOutcome;
}

/** The writes of a run with no crash: opening (from) and the workload (to); crash points are drawn between. */
export function countWrites(base: string, scenario: Scenario, size: number): { from: number; to: number } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-powerloss-count-'));
  try {
    cpSync(base, dir, { recursive: true });
    const out = runChild({ dir, scenario, seed: 1, durableCommits: false, size });
    return { from: out.writesAtStart, to: out.writes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Seeded crash points spread over the given writes (the last one: after the workload). */
export function crashPoints(writes: { from: number; to: number }, count: number, seed: number): number[] {
  const random = prng(seed);
  const span = Math.max(1, writes.to - writes.from);
  const points = Array.from({ length: count - 1 }, () => writes.from + 1 + Math.floor(random() * span));
  return [...points, writes.to + 1];
}

async function keysPresent(dir: string, scenario: Scenario): Promise<{ keys: Set<string>; problems: string[] }> {
  const { pg } = await openPglite(dir);
  try {
    const db = pgliteQueryable(pg);
    if (scenario === 'migration') {
      // What the app does next at start-up: finish the migrations.
      const { rows: before } = await db.query<{ name: string }>(
        `SELECT name FROM schema_migrations WHERE to_regclass('schema_migrations') IS NOT NULL`,
      ).catch(() => ({ rows: [] as { name: string }[] }));
      await migrate(db, readMigrations(findMigrationsDir()));
      const report = await checkIntegrity(db);
      return { keys: new Set(before.map((r) => r.name)), problems: report.problems };
    }
    const report = await checkIntegrity(db);
    const sql =
      scenario === 'writes'
        ? `SELECT split_part(content, ' ', 1) AS key FROM memories`
        : `SELECT 'source' AS key FROM knowledge_sources UNION ALL
           SELECT 'batch' || (chunk_index / 20) FROM knowledge_chunks GROUP BY chunk_index / 20 HAVING count(*) = 20`;
    const { rows } = await db.query<{ key: string }>(sql);
    return { keys: new Set(rows.map((r) => r.key)), problems: report.problems };
  } finally {
    await pg.close();
  }
}

export async function runTrial(base: string, spec: Omit<TrialSpec, 'dir'>): Promise<TrialResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-powerloss-'));
  const full: TrialSpec = { ...spec, dir };
  try {
    cpSync(base, dir, { recursive: true });
    const outcome = runChild(full);
    let present: Awaited<ReturnType<typeof keysPresent>>;
    try {
      present = await keysPresent(dir, spec.scenario);
    } catch (e) {
      return { spec: full, outcome, reopened: false, integrityProblems: [], lostBeforeSync: [], lostAfterSync: 0, error: (e as Error).message };
    }
    const lostBeforeSync: string[] = [];
    let lostAfterSync = 0;
    for (const a of outcome.acked) {
      if (present.keys.has(a.key)) continue;
      if (spec.durableCommits || a.walSyncs < outcome.walSyncsAtCut) lostBeforeSync.push(a.key);
      else lostAfterSync++;
    }
    return { spec: full, outcome, reopened: true, integrityProblems: present.problems, lostBeforeSync, lostAfterSync };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
