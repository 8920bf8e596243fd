// The memory browser at scale, in Chromium through the browser host:
// time until the first memories are on screen, and the frame gaps while
// scrolling fast through the timeline (pages are fetched as it scrolls).
//   npm run build:app && npx tsx bench/memory-browser.ts [--n 100000] [--runs 3] [--scroll-ms 6000]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { createCore } from '../src/core/index';
import { spawnHost } from '../e2e/host-process';
import { percentile } from './latency-stats';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'scroll-ms': { type: 'string', default: '6000' },
    'px-per-frame': { type: 'string', default: '400' },
  },
});
const n = Number(values.n);
const runs = Number(values.runs);
const scrollMs = Number(values['scroll-ms']);
const pxPerFrame = Number(values['px-per-frame']);

/**
 * Seeds `n` memories in one INSERT … SELECT: the fast SQL path, without
 * vectors or embedding jobs, so the host measured next is not busy embedding.
 */
async function seed(dataDir: string): Promise<void> {
  const core = await createCore({ dataDir });
  try {
    await core.call('personas.create', { name: 'Bench' });
    const t = performance.now();
    await core.ctx.db.query(
      `INSERT INTO memories (persona, content, category, importance, day, inserted_at, origin)
       SELECT 'bench',
              'Memory ' || g || ': ' || (ARRAY['met Ana about the budget', 'called the bank about the mortgage',
                'wrote two pages of the novel', 'ran 8 km by the river', 'booked trains to Lyon'])[1 + g % 5]
                || CASE WHEN g % 7 = 0 THEN ' — a longer note that wraps onto a second line in the list, as real memories often do.' ELSE '' END,
              (ARRAY['work', 'money', 'writing', 'health', 'travel'])[1 + g % 5],
              1 + g % 10,
              DATE '2026-11-30' - (g / 40),
              now() - make_interval(secs => g),
              'import'
       FROM generate_series(1, $1::int) AS g`,
      [n],
    );
    await core.ctx.db.exec('ANALYZE memories');
    console.log(`seeded ${n.toLocaleString()} memories in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } finally {
    await core.close();
  }
}

interface ScrollStats {
  frames: number;
  gaps: number[];
  loaded: string;
  rowsInDom: number;
}

/**
 * Scrolls the list by a fixed step every animation frame and records the gaps
 * between frames. Sent as source text: tsx's name helpers do not exist in the page.
 */
function scrollAndMeasure(page: Page): Promise<ScrollStats> {
  return page.evaluate(`new Promise((resolve) => {
    const list = document.querySelector('[data-testid="memory-list"]');
    const gaps = [];
    let last = performance.now();
    const end = last + ${scrollMs};
    function step(now) {
      gaps.push(now - last);
      last = now;
      list.scrollTop += ${pxPerFrame};
      if (now < end) requestAnimationFrame(step);
      else resolve({
        frames: gaps.length,
        gaps,
        loaded: document.querySelector('[data-testid="memory-count"]')?.textContent ?? '',
        rowsInDom: document.querySelectorAll('[data-testid="memory-row"]').length,
      });
    }
    requestAnimationFrame(step);
  })`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-browser-'));
try {
  await seed(dataDir);
  const token = randomBytes(24).toString('base64url');
  const host = await spawnHost({ dataDir, token }, 120_000);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const firstRows: number[] = [];
    const fcp: number[] = [];
    const allGaps: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(`window.localStorage.setItem('hearth.activePersona', 'bench')`);
      const page = await context.newPage();
      await page.goto(host.url);
      await page.waitForSelector('[data-testid="memory-row"]');
      const t = await page.evaluate<{ now: number; fcp: number }>(
        `({ now: performance.now(), fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN })`,
      );
      firstRows.push(t.now);
      fcp.push(t.fcp);
      const s = await scrollAndMeasure(page);
      allGaps.push(...s.gaps.slice(1));
      const slow = s.gaps.filter((g) => g > 50).length;
      console.log(
        `run ${run + 1}: first rows on screen ${t.now.toFixed(0)} ms after navigation (FCP ${t.fcp.toFixed(0)} ms); ` +
          `scrolled ${s.frames} frames at ${pxPerFrame} px/frame: gap p50 ${percentile(s.gaps, 50).toFixed(1)} ms, ` +
          `p95 ${percentile(s.gaps, 95).toFixed(1)} ms, max ${Math.max(...s.gaps).toFixed(0)} ms, ${slow} gaps > 50 ms; ` +
          `after scrolling: "${s.loaded}", ${s.rowsInDom} memory rows in the DOM`,
      );
      await context.close();
    }
    console.log(
      `\nmemory browser, ${n.toLocaleString()} memories, median of ${runs}: first rows ${percentile(firstRows, 50).toFixed(0)} ms ` +
        `(FCP ${percentile(fcp, 50).toFixed(0)} ms); frame gaps while scrolling p50 ${percentile(allGaps, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(allGaps, 95).toFixed(1)} ms, p99 ${percentile(allGaps, 99).toFixed(1)} ms, ` +
        `${((allGaps.filter((g) => g > 50).length / allGaps.length) * 100).toFixed(1)}% > 50 ms`,
    );
  } finally {
    await browser.close();
    await host.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
