// Cold start of `npm start` (browser-host fallback, build already done) to a
// usable page: the persona list rendered from PGlite. Prints each run and the median.
//   node bench/startup.mjs [runs=5]
// Two cases: a first launch on an empty data dir (initdb + migrations), and a
// launch on existing data. The browser is started beforehand, as a user's is.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildIfNeeded, ROOT } from '../scripts/build-if-needed.mjs';

const RUNS = Number(process.argv[2] ?? 5);
const READY = '[data-testid="persona-item"][data-persona-id="main"]';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function launchOnce(browser, dataDir) {
  // The figure is for a built app: a source edit since the last build is built first, untimed.
  buildIfNeeded();
  const t0 = performance.now();
  // Its own process group, so that stopping it stops npm, the shell and node alike.
  const child = spawn('npm', ['start', '--silent', '--', '--data-dir', dataDir], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let out = '';
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /running at (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.stderr.on('data', (d) => (out += d));
      void exited.then((code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
    });
    const tUrl = performance.now();
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector(READY, { timeout: 120_000 });
    const tReady = performance.now();
    await page.close();
    return { url: tUrl - t0, ready: tReady - t0 };
  } finally {
    if (child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

async function series(browser, label, dirFor) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await launchOnce(browser, dirFor(i)));
  const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`\n${label}`);
  runs.forEach((r, i) => console.log(`  run ${i + 1}: URL printed ${fmt(r.url)}, usable page ${fmt(r.ready)}`));
  console.log(`  median: URL printed ${fmt(median(runs.map((r) => r.url)))}, usable page ${fmt(median(runs.map((r) => r.ready)))}`);
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const dirs = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'hearth-bench-start-'));
  dirs.push(d);
  return d;
};
try {
  await series(browser, `npm start → usable page, first launch on an empty data dir (${RUNS} runs)`, fresh);
  const existing = fresh();
  await launchOnce(browser, existing); // create the database once
  await series(browser, `npm start → usable page, existing data dir (${RUNS} runs)`, () => existing);
} finally {
  await browser.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
