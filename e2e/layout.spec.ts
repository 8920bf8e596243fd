import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { expect, test } from './fixtures';
import { AppPage, type ViewName } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

// What a person sees of the window itself: keys typed into a field stay text, every view fits a
// narrow window, and the chrome around the views (drawer, toasts, welcome) keeps out of the way.
// Each test works in a persona of its own on the worker's shared host (e2e/README.md).
test.use({ sharedHost: true });

// Runs in the page; this file is compiled without the DOM library.
type Win = { innerWidth: number; innerHeight: number; scrollX: number; scrollY: number; document: { documentElement: { scrollWidth: number } } };

const widthOf = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as Win;
    return { scroll: w.document.documentElement.scrollWidth, inner: w.innerWidth };
  });

/** Fails unless the element lies wholly inside the window, scrolled to first as a person would. */
async function expectOnScreen(page: Page, testId: string): Promise<void> {
  const el = page.getByTestId(testId).first();
  await el.scrollIntoViewIfNeeded();
  // Reached by scrolling down only: a box that had to scroll sideways to show it is off screen to a person.
  const sideways = await el.evaluate((node) => {
    type El = { parentElement: El | null; scrollLeft: number; className: string };
    const found: string[] = [];
    for (let p = (node as unknown as El).parentElement; p; p = p.parentElement) if (p.scrollLeft > 0) found.push(String(p.className));
    return found;
  });
  expect(sideways, `${testId} sits in a box scrolled sideways`).toEqual([]);
  const box = await el.boundingBox();
  const size = page.viewportSize()!;
  expect(box, `${testId} has a box`).not.toBeNull();
  expect(box!.x, `${testId} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${testId} right edge at ${size.width} px`).toBeLessThanOrEqual(size.width);
  expect(box!.y, `${testId} top edge`).toBeGreaterThanOrEqual(0);
  // Scrolled into view, a box's fractional edge can end under a pixel past the window (scroll offsets are whole pixels).
  expect(box!.y + box!.height, `${testId} bottom edge at ${size.width} px`).toBeLessThan(size.height + 1);
}

test.describe('typing', () => {
  test.use({ fakeOpenAI: true });

  test('text typed after g m, g c lands in the chat box and opens nothing', async ({ host, persona, openApp }) => {
    // A past conversation, which Chat opens while the first keys are typed.
    await host.call('conversations.create', { persona, title: 'Trip to Porto' });
    const app = new AppPage(await openApp());
    await app.ready();
    await app.page.getByTestId('main').focus();
    await app.page.keyboard.press('g');
    await app.page.keyboard.press('m');
    await expect(app.memories.view).toBeVisible();
    await app.page.keyboard.press('g');
    await app.page.keyboard.press('c');
    await expect(app.page.getByTestId('chat-input')).toBeFocused();
    await app.page.keyboard.type('hi there, any news?');
    await expect(app.page.getByTestId('chat-input')).toHaveValue('hi there, any news?');
    await expect(app.page.getByTestId('chat-view')).toBeVisible();
    await expect(app.page.getByTestId('memory-content-input')).toHaveCount(0);
    // Still there once the open conversation has loaded, and a g typed in the box is text too.
    await expect(app.page.locator('[data-testid="conversation-open"][aria-current="true"]')).toBeVisible();
    await app.page.keyboard.type(' g m');
    await expect(app.page.getByTestId('chat-input')).toHaveValue('hi there, any news? g m');
    await expect(app.page.getByTestId('chat-view')).toBeVisible();
  });
});

// The main buttons of each view, which must stay inside the window at every width.
const PRIMARY: Record<ViewName, string[]> = {
  chat: ['chat-input', 'chat-send'],
  memories: ['memory-search', 'memory-new'],
  userModel: ['dimension-add'],
  knowledge: ['knowledge-add', 'source-reingest', 'source-delete'],
  activity: ['activity-view'],
  jobs: ['jobs-filter-queue'],
  trash: ['trash-empty', 'trash-restore'],
  // With its Connections and Data sections: the MCP address, Back up now, Check integrity.
  settings: ['settings-save-chat', 'settings-save-embeddings', 'settings-save-memory', 'mcp-http', 'backup-now', 'check-integrity'],
};

test('every view fits the window from 600 px wide, its main buttons on screen', async ({ host, persona, openApp }) => {
  test.setTimeout(120_000);
  await host.call('memories.write', { persona, content: 'Moved to Lyon for the new job in the spring, a flat near the Saône', category: 'home', importance: 6 });
  await host.call('userModel.upsert', { persona, dimension: 'preferences', content: 'Prefers short answers with the command first' });
  // Something in the trash, so its Restore and Empty buttons are there to check.
  const gone = await host.call('memories.write', { persona, content: 'Booked a table at the bistro on the corner for a long Friday lunch', category: 'plans' });
  await host.call('memories.delete', { id: gone.id });
  await host.call('knowledge.ingest', { persona, name: 'a-handbook-with-a-rather-long-file-name-for-the-office.md', dataBase64: Buffer.from('# Handbook\n\nThe office opens at eight.').toString('base64') });
  await expect.poll(async () => (await host.call('knowledge.listSources', { persona })).length, { timeout: 60_000 }).toBe(1);
  const app = new AppPage(await openApp());
  await app.ready();
  const views = (await app.page.locator('[data-testid^="nav-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)))) as ViewName[];
  expect(views.sort()).toEqual(Object.keys(PRIMARY).sort());

  for (const width of [600, 760, 1280]) {
    await app.page.setViewportSize({ width, height: 800 });
    // Below 800 px the sidebar is a drawer behind the menu button; above, it is always there.
    await expect(app.page.getByTestId('menu-button')).toBeVisible({ visible: width < 800 });
    for (const view of views) {
      await app.go(view);
      if (width < 800) await expect(app.page.getByTestId('sidebar')).not.toBeInViewport();
      for (const id of PRIMARY[view]) await expectOnScreen(app.page, id);
      const w = await widthOf(app.page);
      expect(w.scroll, `${view} at ${width} px scrolls sideways`).toBeLessThanOrEqual(w.inner);
    }
  }
});

test("Settings' section links scroll the settings pane only: the sidebar stays, no blank band below", async ({ openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  // Tall enough that the last section cannot reach the top of the pane.
  await app.page.setViewportSize({ width: 1280, height: 1000 });
  await app.go('settings');
  await app.page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Data' }).click();
  await expect(app.page.getByTestId('settings-section-data')).toBeInViewport();
  const where = await app.page.evaluate(() => {
    const d = (globalThis as unknown as { document: { querySelector(s: string): { scrollTop: number; getBoundingClientRect(): { top: number; bottom: number } } | null } }).document;
    const w = globalThis as unknown as Win;
    return {
      window: w.scrollY,
      main: d.querySelector('.main')!.scrollTop,
      sidebarTop: d.querySelector('.sidebar')!.getBoundingClientRect().top,
      paneBottom: d.querySelector('.settings-view')!.getBoundingClientRect().bottom,
      pane: d.querySelector('.settings-view')!.scrollTop,
      height: w.innerHeight,
    };
  });
  expect(where.pane, 'the settings pane scrolled').toBeGreaterThan(0);
  expect({ window: where.window, main: where.main, sidebarTop: where.sidebarTop, paneBottom: where.paneBottom }).toEqual({ window: 0, main: 0, sidebarTop: 0, paneBottom: where.height });
  // The persona the person works in stays in sight (on a shared host the list itself may be scrolled).
  await expect(app.page.locator('[data-testid="persona-item"][data-active="true"]')).toBeInViewport();
});

test.describe('toasts', () => {
  test.use({ fakeOpenAI: true });

  test('a toast on Chat leaves the message box and Send uncovered, wide and narrow', async ({ host, persona, openApp }) => {
    await host.call('conversations.create', { persona, title: 'Trip to Porto' });
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('chat');
    await expect(app.page.locator('[data-testid="conversation-open"][aria-current="true"]')).toBeVisible();
    await app.page.getByTestId('chat-input').fill('a draft that stays readable');
    for (const width of [1280, 600]) {
      await app.page.setViewportSize({ width, height: 700 });
      await app.page.getByTestId('chat-clear').click();
      const toast = app.toasts.filter({ hasText: 'Conversation cleared' });
      await expect(toast).toBeVisible();
      const t = (await toast.boundingBox())!;
      for (const id of ['chat-input', 'chat-send']) {
        const b = (await app.page.getByTestId(id).boundingBox())!;
        const overlap = t.x < b.x + b.width && b.x < t.x + t.width && t.y < b.y + b.height && b.y < t.y + t.height;
        expect(overlap, `the toast covers ${id} at ${width} px`).toBe(false);
      }
      // Undo puts the conversation back and the toast goes.
      await toast.getByTestId('toast-action').click();
      await expect(toast).toHaveCount(0);
    }
  });
});

test.describe('memory chip', () => {
  test.use({ fakeOpenAI: true });

  test('the "memory saved" chip opens Memories on that memory, not on a search left from before', async ({ host, fake, persona, openApp }) => {
    for (let i = 1; i <= 30; i++) await host.call('memories.write', { persona, content: `Reading list item ${i}: a book about gardens` });
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('memories');
    // A search left on the Memories view.
    await app.memories.searchFor('gardens');
    await expect(app.memories.hits.first()).toBeVisible();

    const chat = installChatRoutes(fake!);
    chat.push(
      { toolCalls: [{ name: 'memory', arguments: '{"action":"write","category":"sport","content":"Ran the Porto marathon in 3:58.","importance":8}' }] },
      { text: 'Saved it.' },
    );
    await app.go('chat');
    const view = new ChatPage(app.page);
    await view.send('remember I ran the Porto marathon in 3:58');
    await expect(view.assistant.last()).toContainText('Saved it.');
    await view.chips.first().click();

    await expect(app.memories.view).toBeVisible();
    await expect(app.memories.search).toHaveValue('');
    await expect(app.memories.hits).toHaveCount(0);
    const row = app.page.locator('[data-testid="memory-row"][data-highlighted="true"]');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('memory-content')).toHaveText('Ran the Porto marathon in 3:58.');
    await expect(row).toBeInViewport();
  });
});

test.describe('first launch', () => {
  // Its own host: it changes a setting (e2e/README.md).
  test.use({ sharedHost: false });

  test("a first launch welcomes in the app's words; once dismissed it is gone for good and leaves nothing behind", async ({ host, openApp }) => {
    // The test hosts start as a returning user's (e2e/host-pool.ts): this one as a first one's.
    await host.call('settings.set', { welcomeDismissed: false });
    const app = new AppPage(await openApp());
    await app.ready();
    const welcome = app.page.getByTestId('welcome');
    await expect(welcome).toBeVisible();
    await expect(welcome.getByRole('heading')).toHaveText('Welcome to Hearth');
    for (const words of ['works offline', 'add a model', 'drop a file', 'MCP']) await expect(welcome).toContainText(words);
    // On a narrow window too, it fits and the view's own buttons stay reachable.
    await app.page.setViewportSize({ width: 600, height: 800 });
    const w = await widthOf(app.page);
    expect(w.scroll).toBeLessThanOrEqual(w.inner);
    await expectOnScreen(app.page, 'welcome-dismiss');
    await expectOnScreen(app.page, 'memory-new');
    // Readable in both themes (the accessibility tour's hosts start with it dismissed, so it is audited here).
    for (const colorScheme of ['light', 'dark'] as const) {
      await app.page.emulateMedia({ colorScheme });
      const audit = await new AxeBuilder({ page: app.page }).include('[data-testid="welcome"]').withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice']).analyze();
      expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${colorScheme}: ${v.id}`)).toEqual([]);
    }

    await app.page.setViewportSize({ width: 1280, height: 800 });
    const mainTop = (await app.page.getByTestId('main').boundingBox())!.y;
    await app.page.getByTestId('welcome-dismiss').click();
    await expect(welcome).toHaveCount(0);
    // Nothing left where it was: the view starts at the top of the main area.
    expect((await app.memories.view.boundingBox())!.y).toBe(mainTop);
    await expect.poll(async () => (await host.call('settings.get', {})).welcomeDismissed).toBe(true);
    await app.page.reload();
    await app.ready();
    await expect(app.memories.view).toBeVisible();
    await expect(welcome).toHaveCount(0);
  });
});
