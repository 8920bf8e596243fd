import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// Runs in the page; this file is compiled without the DOM library.
type Styles = { getComputedStyle(el: unknown): { backgroundColor: string } };

const CHAT_KEY = 'sk-test-CHAT-5f1c9e2b7a64d083';
const EMB_KEY = 'sk-test-EMB-0b8e44c1d2a97f65';

/** Records every HTTP response body and every WebSocket frame the page receives. */
function recordTraffic(page: Page): { seen: string[]; pending: Promise<void>[] } {
  const seen: string[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    pending.push(
      res
        .body()
        .then((b) => void seen.push(`${res.url()}\n${b.toString('utf8')}`))
        // A redirect or an aborted navigation has no body to read; record that it had none.
        .catch((e: unknown) => void seen.push(`${res.url()}\n<no body: ${String(e)}>`)),
    );
  });
  page.on('websocket', (ws) => ws.on('framereceived', (f) => void seen.push(`ws\n${String(f.payload)}`)));
  return { seen, pending };
}

test('keys are write-only: never pre-filled, shown as set / not set, never in any response', async ({ host, page, openApp }) => {
  const traffic = recordTraffic(page);
  const app = new AppPage(await openApp(page));
  await app.ready();
  await app.go('settings');
  const s = app.settings;
  await expect(s.keyStatus('chat')).toHaveText('not set');

  await s.field('chat-base-url').fill('http://127.0.0.1:11434/v1');
  await s.field('chat-model').fill('llama3.1');
  await s.keyInput('chat').fill(CHAT_KEY);
  await s.save('chat');
  await s.field('review-every').fill('6');
  await s.field('context-budget').fill('24000');
  await s.save('memory');
  await expect(s.keyStatus('chat')).toHaveText('set');
  await expect(s.keyInput('chat')).toHaveValue('');

  await s.provider('openai').check();
  await s.keyInput('embeddings').fill(EMB_KEY);
  await s.save('embeddings');
  await expect(s.keyStatus('embeddings')).toHaveText('set');
  await expect(s.keyInput('embeddings')).toHaveValue('');
  await s.view.evaluate((el) => el.scrollTo(0, 0));
  await app.screenshot('settings');

  await app.page.reload();
  await app.ready();
  await expect(s.view).toBeVisible();
  await expect(s.keyStatus('chat')).toHaveText('set');
  await expect(s.keyInput('chat')).toHaveValue('');
  await expect(s.keyInput('embeddings')).toHaveValue('');
  await expect(s.field('chat-model')).toHaveValue('llama3.1');
  await expect(s.field('chat-base-url')).toHaveValue('http://127.0.0.1:11434/v1');
  await expect(s.field('review-every')).toHaveValue('6');
  await expect(s.field('context-budget')).toHaveValue('24000');
  const stored = await host.call('settings.get', {});
  expect(stored.chat.apiKey).toBe('set');
  expect(stored.embeddings.provider).toBe('openai');

  await s.clearKey('chat').click();
  await app.page.getByTestId('chat-key-clear-confirm').click();
  await expect(s.keyStatus('chat')).toHaveText('not set');
  expect((await host.call('settings.get', {})).chat.apiKey).toBe('not set');

  await Promise.all(traffic.pending);
  expect(traffic.seen.length).toBeGreaterThan(5);
  const apiResponses = traffic.seen.filter((t) => t.includes('/api/settings.'));
  expect(apiResponses.length).toBeGreaterThanOrEqual(4);
  for (const body of traffic.seen) {
    expect(body).not.toContain(CHAT_KEY);
    expect(body).not.toContain(EMB_KEY);
  }
  await expect(app.errorToasts()).toHaveCount(0);
});

test('a problem is written beside its field (ours or the server’s), and leaving with unsaved edits asks first', async ({ host, page, openApp }) => {
  const app = new AppPage(await openApp(page));
  await app.ready();
  await app.go('settings');
  const s = app.settings;

  // Checked in the page as soon as the field is left.
  await s.field('chat-base-url').fill('not a url');
  await s.field('chat-model').focus();
  await expect(s.fieldError('chat-base-url')).toHaveText(/Not a URL/);
  await expect(s.field('chat-base-url')).toHaveAttribute('aria-invalid', 'true');
  await s.saveButton('chat').click();
  await expect(s.fieldError('chat-model')).toHaveText(/Name the model/);
  expect((await host.call('settings.get', {})).chat.baseUrl).toBeNull();

  // Refused by the core: its message lands on the field it names, not in a toast.
  await s.field('chat-base-url').fill('http://127.0.0.1:11434/v1');
  await s.field('chat-model').fill('m'.repeat(201));
  await s.saveButton('chat').click();
  await expect(s.fieldError('chat-model')).toBeVisible();
  await expect(s.fieldError('chat-base-url')).toHaveCount(0);
  await expect(app.toasts).toHaveCount(0);
  expect((await host.call('settings.get', {})).chat.model).toBeNull();
  await s.section('chat').getByTestId('settings-save-chat-revert').click();
  await expect(s.field('chat-model')).toHaveValue('');

  // Unsaved edits: the way out asks, "Keep editing" keeps them, "Discard" drops them.
  await s.field('review-every').fill('9');
  await expect(page.getByTestId('settings-save-memory-unsaved')).toBeVisible();
  await page.getByTestId('nav-memories').click();
  const dialog = page.getByTestId('unsaved-dialog');
  await expect(dialog).toContainText('Memory and context');
  await expect(page.getByTestId('unsaved-stay')).toBeFocused();
  await page.getByTestId('unsaved-stay').click();
  await expect(dialog).toHaveCount(0);
  await expect(s.field('review-every')).toHaveValue('9');
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');

  await page.getByTestId('nav-memories').click();
  await page.getByTestId('unsaved-discard').click();
  await expect(page.getByTestId('nav-memories')).toHaveAttribute('aria-current', 'page');
  await app.go('settings');
  await expect(s.field('review-every')).toHaveValue('8');
  expect((await host.call('settings.get', {})).reviewEvery).toBe(8);
});

test('pointing the chat model at another server warns that the key will be cleared, then clears it', async ({ host, page, openApp }) => {
  const app = new AppPage(await openApp(page));
  await app.ready();
  await app.go('settings');
  const s = app.settings;
  await s.field('chat-base-url').fill('http://127.0.0.1:11434/v1');
  await s.field('chat-model').fill('llama3.1');
  await s.keyInput('chat').fill(CHAT_KEY);
  await s.save('chat');
  await expect(s.keyStatus('chat')).toHaveText('set');
  await expect(s.keyCleared('chat')).toHaveCount(0);

  // Same server written differently: no warning. Another server: the warning, before anything is saved.
  await s.field('chat-base-url').fill('http://127.0.0.1:11434/v1/');
  await expect(s.keyCleared('chat')).toHaveCount(0);
  await s.field('chat-base-url').fill('http://127.0.0.1:8080/v1');
  await expect(s.keyCleared('chat')).toBeVisible();
  await expect(s.keyCleared('chat')).toContainText('The key will be cleared when you save');
  expect((await host.call('settings.get', {})).chat.apiKey).toBe('set');

  // Typing a key for the new server takes the warning away; emptying it brings it back.
  await s.keyInput('chat').fill('sk-new');
  await expect(s.keyCleared('chat')).toHaveCount(0);
  await s.keyInput('chat').fill('');
  await expect(s.keyCleared('chat')).toBeVisible();

  await s.save('chat');
  await expect(s.keyStatus('chat')).toHaveText('not set');
  await expect(s.keyCleared('chat')).toHaveCount(0);
  expect((await host.call('settings.get', {})).chat).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'llama3.1', apiKey: 'not set' });
  await expect(app.errorToasts()).toHaveCount(0);
});

test('Settings → Data says where the data folder is without its path, and turns durable commits on and off, kept across a reload', async ({ host, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('settings');
  const data = app.page.getByTestId('settings-section-data');
  await expect(data.getByTestId('data-folder-where')).toContainText('on the computer running Hearth');
  // The page gets no path of the computer Hearth runs on (docs/security.md).
  await expect(data).not.toContainText(host.dataDir);
  expect(JSON.stringify(await host.call('app.info', {}))).not.toContain(host.dataDir);
  await data.scrollIntoViewIfNeeded();
  await app.screenshot('settings-data-storage');
  const durable = data.getByTestId('durable-commits');
  await expect(durable).not.toBeChecked();
  await durable.check();
  await expect(app.toasts.filter({ hasText: 'Durable commits on' })).toBeVisible();
  expect((await host.call('settings.get', {})).durableCommits).toBe(true);
  await app.page.reload();
  await app.ready();
  await app.go('settings');
  await expect(app.page.getByTestId('durable-commits')).toBeChecked();
  await app.page.getByTestId('durable-commits').uncheck();
  await expect.poll(async () => (await host.call('settings.get', {})).durableCommits).toBe(false);
  await expect(app.errorToasts()).toHaveCount(0);
});

test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('Appearance: Dark applies at once and before the app is drawn after a reload; System follows the computer again', async ({ openApp }) => {
    const app = new AppPage(await openApp());
    await app.page.emulateMedia({ colorScheme: 'light' });
    await app.ready();
    await app.go('settings');
    const bg = () => app.page.locator('body').evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor);
    const LIGHT = 'rgb(247, 247, 245)';
    const DARK = 'rgb(24, 24, 26)';
    await expect(app.page.getByTestId('theme-system')).toBeChecked();
    expect(await bg()).toBe(LIGHT);
    await app.page.getByTestId('theme-dark').check();
    await expect.poll(bg).toBe(DARK);
    await app.screenshot('settings-appearance-dark');

    // With the app's own code held back, the page is already dark: the choice is applied before the first paint.
    await app.page.route('**/assets/*.js', (r) => r.abort());
    await app.page.reload();
    expect(await bg()).toBe(DARK);
    await app.page.unroute('**/assets/*.js');
    await app.page.reload();
    await app.ready();
    await app.go('settings');
    await expect(app.page.getByTestId('theme-dark')).toBeChecked();

    // Kept with the data, not on this screen: a browser with nothing stored (as after the browser host
    // restarts on a new port) opens dark too.
    const fresh = await app.page.context().browser()!.newContext();
    try {
      const other = await openApp(await fresh.newPage());
      await other.emulateMedia({ colorScheme: 'light' });
      await expect.poll(() => other.locator('body').evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor)).toBe(DARK);
    } finally {
      await fresh.close();
    }

    // Light wins over a dark computer; System follows it again.
    await app.page.emulateMedia({ colorScheme: 'dark' });
    await app.page.getByTestId('theme-light').check();
    await expect.poll(bg).toBe(LIGHT);
    await app.page.getByTestId('theme-system').check();
    await expect.poll(bg).toBe(DARK);
  });
});
