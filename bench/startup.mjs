// Cold start of `npm start` (browser-host fallback, build already done) to a
// usable page: the persona list rendered from PGlite. Prints each run and the median.
//   node bench/startup.mjs [runs=5] [--against DIR]
// --against DIR: another checkout of Hearth (built, with node_modules) launched in turns with this one,
// so that a before/after comparison shares one machine load.
// Two cases: a first launch on an empty data dir (initdb + migrations), and a
// launch on existing data. The browser is started beforehand, as a user's is.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildIfNeeded, ROOT } from '../scripts/build-if-needed.mjs';

const args = process.argv.slice(2);
const againstAt = args.indexOf('--against');
const AGAINST = againstAt >= 0 ? args.splice(againstAt, 2)[1] : null;
const RUNS = Number(args[0] ?? 5);
const READY = '[data-testid="persona-item"][data-persona-id="main"]';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function launchOnce(browser, dataDir, root = ROOT) {
  // The figure is for a built app: a source edit since the last build is built first, untimed.
  if (root === ROOT) buildIfNeeded();
  const t0 = performance.now();
  // Its own process group, so that stopping it stops npm, the shell and node alike.
  const child = spawn('npm', ['start', '--silent', '--', '--data-dir', dataDir], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

async function series(browser, label, dirFor) {
  const roots = AGAINST ? [[AGAINST, `${AGAINST}`], [ROOT, 'this checkout']] : [[ROOT, null]];
  const runs = roots.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, [root]] of roots.entries()) runs[k].push(await launchOnce(browser, dirFor(i, k), root));
  }
  const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`\n${label} (load ${load()})`);
  for (const [k, [, name]] of roots.entries()) {
    if (name) console.log(` ${name}:`);
    runs[k].forEach((r, i) => console.log(`  run ${i + 1}: URL printed ${fmt(r.url)}, usable page ${fmt(r.ready)}`));
    console.log(`  median: URL printed ${fmt(median(runs[k].map((r) => r.url)))}, usable page ${fmt(median(runs[k].map((r) => r.ready)))}`);
  }
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
  // One data dir per checkout, each created once by its own launch.
  const existing = (AGAINST ? [AGAINST, ROOT] : [ROOT]).map((root) => ({ root, dir: fresh() }));
  for (const { root, dir } of existing) await launchOnce(browser, dir, root);
  await series(browser, `npm start → usable page, existing data dir (${RUNS} runs)`, (_i, k) => existing[k].dir);
} finally {
  await browser.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
