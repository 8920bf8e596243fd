import AxeBuilder from '@axe-core/playwright';
import { type FakeServer, startFakeServer } from '../src/core/testing/fake-openai/server';
import { expect, type Host, takeSharedHost, test } from './fixtures';
import { LOOKS, openTour, runTour, seedTour, startTour } from './tour';

// Every view, with data, in both themes and at both widths, audited by axe-core against the
// WCAG 2.x A/AA rules plus axe's best practices (heading order, empty table headers…).
// Serious and critical findings fail the test; every finding is printed with its view.
// One test per look, so two workers share the four.

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const FAILING = new Set(['serious', 'critical']);

interface Finding {
  where: string;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

// The four looks audit the same data: the tour only reads, and each stop leaves the app as it found
// it (tour.ts). So each worker seeds one host and holds the chat once, and every look it runs opens
// that host in a page of its own (docs/testing.md: a seeded host was most of each look's time).
let host: (Host & { release(): void }) | null = null;
let fake: FakeServer | null = null;

test.beforeAll(async ({ hostPool, browser }) => {
  // A host start, the seed and a chat turn: minutes when the two cores are shared by several suites.
  test.setTimeout(300_000);
  fake = await startFakeServer();
  host = await takeSharedHost(hostPool);
  await host.call('settings.set', { chat: { baseUrl: fake.baseURL, model: 'fake-chat', apiKey: 'sk-fake' } });
  await seedTour(host);
  const page = await browser.newPage();
  try {
    await startTour(page, host, fake);
  } finally {
    await page.close();
  }
});

test.afterAll(async () => {
  host?.release();
  await fake?.close();
});

for (const look of LOOKS) {
  test(`no serious or critical accessibility violations on any view: ${look.theme}, ${look.width} px`, async ({ page }) => {
    // ~1 min on a quiet machine; minutes when the two cores are shared by several suites.
    test.setTimeout(420_000);
    const app = await openTour(page, host!);
    const findings: Finding[] = [];
    await runTour(app, look, async (stop) => {
      // axe.run in the page itself ("legacy mode"), not axe's default of a partial run per frame
      // finished in a blank page opened for each audit: that page was half of each look's time, and
      // it only matters for frames from other origins. The app has no frames; this says so if one comes.
      expect(page.frames(), `frames on ${stop.name}`).toHaveLength(1);
      // Only violations are read: skipping the detail of passes and incompletes makes each audit cheaper.
      const result = await new AxeBuilder({ page }).setLegacyMode().withTags(TAGS).options({ resultTypes: ['violations'] }).analyze();
      for (const v of result.violations) {
        for (const node of v.nodes) {
          findings.push({
            where: `${stop.name} ${look.theme} ${look.width}`,
            rule: v.id,
            impact: v.impact ?? 'unknown',
            target: node.target.join(' '),
            summary: (node.failureSummary ?? v.help).split('\n').slice(0, 2).join(' '),
          });
        }
      }
    });

    const counts = new Map<string, number>();
    for (const f of findings) counts.set(`${f.rule} (${f.impact})`, (counts.get(`${f.rule} (${f.impact})`) ?? 0) + 1);
    console.log(`axe ${look.theme} ${look.width}: ${findings.length} findings`);
    for (const [rule, n] of [...counts].sort()) console.log(`  ${rule}: ${n}`);
    for (const f of findings) console.log(`  [${f.impact}] ${f.rule} · ${f.where} · ${f.target} · ${f.summary}`);

    const failing = findings.filter((f) => FAILING.has(f.impact)).map((f) => `${f.rule} · ${f.where} · ${f.target}`);
    expect(failing, 'serious or critical accessibility violations').toEqual([]);
  });
}
