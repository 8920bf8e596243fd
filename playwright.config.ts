import { defineConfig } from '@playwright/test';

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
  timeout: 60_000,
  expect: { timeout: 10_000 },
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
