import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { testTmpDir } from './src/core/testing/test-tmpdir';

// The slowest files (fresh-clone CI of 1 December, 22:13, two files at a time), longest first.
// Without the timings vitest keeps from an earlier run (a fresh clone has none) it starts the
// largest files first, which once left the 10-line two-hosts test (31 s) and power-loss (43 s) for
// the end, while the other worker had nothing left to run. A stale list costs nothing but that balance.
const SLOW_FIRST = [
  'src/core/backups/backups.test.ts', // 64 s
  'src/core/backups/kill.test.ts', // 60 s
  'src/mcp/processes.test.ts', // 60 s
  'src/core/db/migrate.test.ts', // 49 s
  'src/core/recall/agreement.test.ts', // 35 s
  'src/core/portable/portable.test.ts', // 34 s
  'src/core/jobs/recovery.test.ts', // 31 s
  'src/core/recall/term-stats.test.ts', // 31 s
  'src/core/settings/keys.test.ts', // 30 s
  'src/core/recall/robustness.test.ts', // 29 s
  'src/core/db/power-loss.test.ts', // 28 s
  'src/core/db/two-hosts.test.ts', // 26 s
  'src/core/history/history.test.ts', // 24 s
  'src/core/knowledge/ingest.test.ts', // 24 s
  'src/core/db/integrity.test.ts', // 23 s
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
