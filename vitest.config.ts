import { defineConfig } from 'vitest/config';
import { testTmpDir } from './src/core/testing/test-tmpdir';

// Test data folders on tmpfs when there is one (src/core/testing/test-tmpdir.ts).
const tmp = testTmpDir();

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    // Each file opens its own PGlite in a worker thread; two cores, so keep it modest.
    pool: 'forks',
    maxWorkers: 2,
    // Generous: CI on two busy cores is ~2.5x slower than a lone run, and the fixtures' waits allow 60 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // os.tmpdir() reads TMPDIR: every test's temp folder, and the processes it starts, go there.
    ...(tmp ? { env: { TMPDIR: tmp } } : {}),
  },
});
