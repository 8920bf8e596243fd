import type { ConsoleMessage, Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage, type ViewName } from './pages/AppPage';

const VIEWS: ViewName[] = ['chat', 'memories', 'userModel', 'knowledge', 'jobs', 'settings'];

// What one page logs and requests: in a persona of its own on the worker's shared host (e2e/README.md).
test.use({ sharedHost: true });

test('no console errors and no failed requests on any view; the app has its icon', async ({ host, persona, openApp, page }) => {
  await host.call('memories.write', { persona, content: 'Likes **tea**', category: 'food', importance: 7 });
  const problems: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // A content-policy violation is a problem too, even one the page's code catches (an eval probe).
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('content policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  page.on('response', (r: Response) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${new URL(r.url()).pathname}`);
  });
  const app = new AppPage(await openApp());
  await app.ready();
  for (const view of VIEWS) {
    await app.go(view);
    await expect(app.page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }
  await app.page.reload();
  await app.ready();
  // The favicon is declared and served (no /favicon.ico guess that 404s).
  const icons = await app.page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => (l as unknown as { href: string }).href));
  expect(icons.map((h) => new URL(h).pathname).sort()).toEqual(['/icon.png', '/icon.svg']);
  for (const href of icons) {
    const res = await app.page.request.get(href);
    expect(res.status(), href).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^image\//);
  }
  expect(problems).toEqual([]);
});
