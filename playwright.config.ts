import { defineConfig } from '@playwright/test';
import { testTmpDir } from './src/core/testing/test-tmpdir';

// Hosts' data folders on tmpfs when there is one (src/core/testing/test-tmpdir.ts). The config is
// read by the runner and by every worker, so the hosts they start inherit it.
const tmp = testTmpDir();
if (tmp) process.env.TMPDIR = tmp;

// End-to-end tests drive the built app (npm run build first) in Debian's
// Chromium through the browser host; see e2e/README.md for the fixtures.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'e2e-artifacts/test-results',
  // Each test starts its own host (a Node process with PGlite, ~300 MB): two at a time on two cores.
  workers: 2,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // Waits allow 60 s: a fresh-clone CI run on two busy cores is ~2.5x slower than a lone run,
  // and one flake costs the whole run. A passing wait returns as soon as it holds.
  timeout: 120_000,
  expect: { timeout: 60_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
