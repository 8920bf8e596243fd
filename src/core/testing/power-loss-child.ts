// One power-loss trial, in its own process (src/core/testing/power-loss.ts
// starts it): opens PGlite over CrashIo, runs a workload (ending with a clean
// close, whose checkpoint writes the data pages) until the simulated power cut,
// rewinds what was not synced, prints what was acknowledged and exits at once.
// Usage: node <its bundle, source-build.ts> '<json TrialSpec>'
import { openPglite } from '../db/pglite';
import { findMigrationsDir, migrate, readMigrations } from '../db/migrate';
import { CrashIo } from './crash-io';
import { pgliteQueryable } from './pglite-queryable';
import type { Acked, TrialOutcome, TrialSpec } from './power-loss';

const spec = JSON.parse(process.argv[2] ?? '') as TrialSpec;
const acked: Acked[] = [];
let finished = false;
let writesAtStart = 0;
let rewound: TrialOutcome['rewound'] | null = null;
/** The workload failing with no power cut is itself a finding, reported with the outcome. */
let failure: unknown = null;

function powerCut(): void {
  if (rewound) return;
  rewound = io.crash();
  const out: TrialOutcome = {
    acked,
    walSyncsAtCut: io.walSyncs,
    writes: io.writeCount,
    writesAtStart,
    crashed: io.crashed && !finished,
    rewound,
    ...(failure ? { workloadError: String(failure) } : {}),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

// The machine stops inside the write: nothing after it runs.
const io = new CrashIo(spec.seed, spec.crashAtWrite ?? Infinity, () => {
  powerCut();
  process.exit(0);
});
// PGlite may end the process itself (a Postgres FATAL).
process.on('exit', powerCut);

function ack(key: string): void {
  acked.push({ key, walSyncs: io.walSyncs });
}

async function workload(): Promise<void> {
  const { pg } = await openPglite(spec.dir, { durableCommits: spec.durableCommits, io });
  const db = pgliteQueryable(pg);
  writesAtStart = io.writeCount;
  if (spec.scenario === 'migration') {
    const files = readMigrations(findMigrationsDir());
    // Each migration commits on its own; note each one as it is acknowledged.
    const counting = {
      ...db,
      transaction: async <T>(fn: Parameters<typeof db.transaction<T>>[0]) => {
        const out = await db.transaction(fn);
        const { rows } = await db.query<{ name: string }>('SELECT max(name) AS name FROM schema_migrations');
        if (rows[0]?.name) ack(rows[0].name);
        return out;
      },
    };
    await migrate(counting, files);
  } else if (spec.scenario === 'writes') {
    for (let i = 1; i <= spec.size; i++) {
      if (i % 5 === 0) {
        await db.transaction(async (tx) => {
          for (let j = 0; j < 3; j++) {
            await tx.query(`INSERT INTO memories (persona, content, day) VALUES ('main', $1, '2026-01-01')`, [`w${i}-${j} ${'x'.repeat(300)}`]);
          }
        });
        for (let j = 0; j < 3; j++) ack(`w${i}-${j}`);
      } else {
        await db.query(`INSERT INTO memories (persona, content, day) VALUES ('main', $1, '2026-01-01')`, [`w${i}-0 ${'y'.repeat(300)}`]);
        ack(`w${i}-0`);
      }
      if (i % 7 === 0) await db.query(`UPDATE memories SET importance = 7 WHERE content LIKE $1`, [`w${i - 1}-%`]);
      // Half way, a checkpoint: data pages written and synced while more commits follow.
      if (i === Math.floor(spec.size / 2)) await db.exec('CHECKPOINT');
    }
  } else {
    // Ingest-shaped: one source, its chunks stored in batches of 20 per transaction.
    await db.query(`INSERT INTO knowledge_sources (persona, source, kind) VALUES ('main', 'book.pdf', 'pdf')`);
    ack('source');
    for (let b = 0; b < spec.size; b++) {
      await db.transaction(async (tx) => {
        for (let c = 0; c < 20; c++) {
          await tx.query(
            `INSERT INTO knowledge_chunks (persona, source, chunk_index, content) VALUES ('main', 'book.pdf', $1, $2)`,
            [b * 20 + c, `chunk ${b * 20 + c} ${'lorem ipsum dolor sit amet '.repeat(40)}`],
          );
        }
      });
      ack(`batch${b}`);
    }
  }
  // The shutdown checkpoint: every data page and pg_control written and synced.
  await pg.close();
}

try {
  await workload();
  finished = true;
} catch (e) {
  failure = e;
}
powerCut();
process.exit(0);
