import type { Locator, Page } from '@playwright/test';
import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

// The important paths without a mouse: only Tab, Enter, Escape and the app's shortcuts.
test.use({ fakeOpenAI: true });

// Runs in the page; this file is compiled without the DOM library.
type Doc = { document: { activeElement: { getAttribute(n: string): string | null } | null } };
type Styles = { getComputedStyle(el: unknown): { outlineStyle: string; boxShadow: string; opacity: string } };

const focusedTestId = (page: Page) => page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.getAttribute('data-testid') ?? null);

/** Presses Tab until the element is focused (as a person would), failing if it never comes. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}; focus ended on ${await focusedTestId(page)}`);
}

/** A focus ring a person can see: an outline or a box shadow on the focused element. */
async function expectVisibleFocus(el: Locator): Promise<void> {
  const s = await el.evaluate((node) => {
    const c = (globalThis as unknown as Styles).getComputedStyle(node);
    return { outline: c.outlineStyle, shadow: c.boxShadow };
  });
  expect(s.outline !== 'none' || s.shadow !== 'none', `focus ring on ${el}`).toBe(true);
}

test('every important path works from the keyboard, with focus visible and dialogs handing focus back', async ({ host, fake, page, openApp }) => {
  test.setTimeout(180_000);
  await host.call('memories.write', { persona: 'main', content: 'Waters the ferns on Sundays', category: 'home', importance: 4 });
  await host.call('personas.create', { name: 'Work' });
  const app = new AppPage(await openApp(page));
  await app.ready();

  // The first Tab shows the skip link; Enter jumps past the sidebar into the view.
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('main')).toBeFocused();

  // A new memory: n opens the editor with the cursor in it, Ctrl+Enter saves.
  await page.keyboard.press('n');
  await expect(page.getByTestId('memory-content-input')).toBeFocused();
  await page.keyboard.type('Keeps the spare key with the neighbour');
  await page.keyboard.press('Control+Enter');
  await expect(app.memories.row('Keeps the spare key')).toBeVisible();

  // Row actions: reached by Tab, shown while focused (not only on hover), and they work with Enter.
  const row = app.memories.row('Waters the ferns');
  const edit = row.getByTestId('memory-edit');
  await page.getByTestId('main').focus();
  await tabTo(page, edit);
  await expectVisibleFocus(edit);
  expect(await row.locator('.row-actions').evaluate((n) => (globalThis as unknown as Styles).getComputedStyle(n).opacity)).toBe('1');
  await page.keyboard.press('Enter');
  // The row turns into its editor (it no longer shows the text as a paragraph).
  const input = page.locator('[data-testid="memory-row"].editing').getByTestId('memory-content-input');
  await expect(input).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.type(' and Wednesdays');
  await page.keyboard.press('Control+Enter');
  await expect(app.memories.row('Waters the ferns on Sundays and Wednesdays')).toBeVisible();

  // Search: / focuses it, Enter searches, Esc clears.
  await page.keyboard.press('/');
  await expect(app.memories.search).toBeFocused();
  await page.keyboard.type('spare key');
  await page.keyboard.press('Enter');
  await expect(app.memories.hit('Keeps the spare key')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(app.memories.hits).toHaveCount(0);

  // Help: ? opens it with focus inside; Esc closes it and focus goes back where it was.
  await app.memories.search.focus();
  await page.keyboard.press('Tab');
  const before = await focusedTestId(page);
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help).toBeVisible();
  expect(await help.evaluate((d) => d.contains((globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement as never))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  expect(await focusedTestId(page)).toBe(before);

  // The delete-persona dialog: reached by Tab in the sidebar, focus lands in its confirm field, Esc hands it back.
  const work = page.locator('[data-testid="persona-item"]').filter({ hasText: 'Work' });
  const del = work.getByTestId('persona-delete');
  await page.getByTestId('skip-link').focus();
  await tabTo(page, del);
  await expectVisibleFocus(del);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('delete-confirm-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(app.personas.dialog).toHaveCount(0);
  await expect(del).toBeFocused();

  // Knowledge: the drop zone has a keyboard twin, the "Add files…" button opening the file picker.
  await page.getByTestId('main').focus();
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page.getByTestId('knowledge-empty')).toBeVisible();
  const add = page.getByTestId('knowledge-add');
  // Waited for before the Tabs: Playwright turns on Chromium's file-chooser interception when the wait
  // begins, and a chooser opened before that is lost (one full run at load 20 waited out its 180 s).
  const chooserOpened = page.waitForEvent('filechooser');
  await page.getByTestId('main').focus();
  await tabTo(page, add);
  await expectVisibleFocus(add);
  await page.keyboard.press('Enter');
  const chooser = await chooserOpened;
  await chooser.setFiles({ name: 'keys.md', mimeType: 'text/markdown', buffer: Buffer.from('# Keys\n\nThe spare key is with the neighbour.') });
  await expect(page.locator('[data-testid="source-row"][data-source="keys.md"]')).toBeVisible({ timeout: 60_000 });
  // A screen reader hears that it is in (the live status), not every step of the progress bar.
  await expect(page.getByTestId('ingest-status')).toHaveText('Finished adding files.');

  // Chat: Tab reaches the composer, Enter sends, the answer arrives.
  const chat = installChatRoutes(fake!);
  chat.push({ text: 'It is with the neighbour.' });
  await page.keyboard.press('g');
  await page.keyboard.press('c');
  const view = new ChatPage(page);
  await page.getByTestId('main').focus();
  await tabTo(page, view.input);
  await expectVisibleFocus(view.input);
  await page.keyboard.type('where is the spare key?');
  await page.keyboard.press('Enter');
  await expect(view.assistant.last()).toHaveText(/with the neighbour/);
  await expect(app.errorToasts()).toHaveCount(0);
});
