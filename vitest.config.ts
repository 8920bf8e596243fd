import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { testTmpDir } from './src/core/testing/test-tmpdir';

// The slowest files (mean of the fresh-clone CI runs of 2 December, 03:32 and 04:04, two files at a
// time), longest first. Without the timings vitest keeps from an earlier run (a fresh clone has none) it
// starts the largest files first, which once left the 1-test private-files check (21 s) and idle-cost
// (10 s, mostly waiting) for the end while the other worker had nothing left to run. A stale list costs
// nothing but that balance.
const SLOW_FIRST = [
  'src/core/backups/backups.test.ts', // 57 s
  'src/core/backups/kill.test.ts', // 45 s
  'src/mcp/processes.test.ts', // 43 s
  'src/core/recall/robustness.test.ts', // 34 s
  'src/core/portable/portable.test.ts', // 27 s
  'src/core/recall/term-stats.test.ts', // 25 s
  'src/core/recall/agreement.test.ts', // 25 s
  'src/core/db/power-loss.test.ts', // 25 s
  'src/core/private-files.test.ts', // 20 s
  'src/core/db/idle-vacuum.test.ts', // 19 s
  'src/core/db/migrate.test.ts', // 19 s
  'src/core/history/history.test.ts', // 19 s
  'src/core/db/two-hosts.test.ts', // 18 s
  'src/core/providers/listeners.test.ts', // 17 s
  'src/core/recall/filters.test.ts', // 15 s
  'src/core/personas/delete.test.ts', // 14 s
  'src/core/jobs/recovery.test.ts', // 14 s
  'src/core/knowledge/ingest.test.ts', // 12 s
  'src/core/mcp/scoping.test.ts', // 11 s
  'src/core/embeddings/retry.test.ts', // 11 s
  'src/core/db/idle-cost.test.ts', // 10 s
  'src/core/parse/parser.test.ts', // 10 s
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.replaceAll('\\', '/').endsWith(s));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    // Stable: files outside the list keep vitest's own order (measured durations when it has them).
    return (await super.sort(files)).map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}

// Test data folders on tmpfs when there is one (src/core/testing/test-tmpdir.ts).
const tmp = testTmpDir();

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    // Each file opens its own PGlite in a worker thread; two cores, so keep it modest.
    pool: 'forks',
    maxWorkers: 2,
    // A worker process runs file after file with the modules it already loaded (the core, PGlite's
    // JS, zod, the OpenAI client) instead of importing them again for each of the ~80 files: that
    // import was ~25 % of the suite's CPU (docs/testing.md). Every file still gets its own cores,
    // data folders and servers; src/core keeps no state in modules that a file could leave behind.
    isolate: false,
    sequence: { sequencer: SlowFirst },
    // Generous: CI on two busy cores is ~2.5x slower than a lone run, and the fixtures' waits allow 60 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // os.tmpdir() reads TMPDIR: every test's temp folder, and the processes it starts, go there.
    ...(tmp ? { env: { TMPDIR: tmp } } : {}),
  },
});
