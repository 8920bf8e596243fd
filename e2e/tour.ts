import { expect, type Page } from '@playwright/test';
import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import type { FakeServer } from '../src/core/testing/fake-openai/server';
import { makeEncryptedPdf } from '../src/core/testing/test-pdfs';
import type { Host } from './fixtures';
import { AppPage, type ViewName } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

/**
 * A walk through every view of the app WITH DATA on screen, shared by the
 * accessibility audit (e2e/axe.spec.ts) and the screenshot set
 * (e2e/screenshots.shots.ts), so both look at the same screens.
 */

export const THEMES = ['light', 'dark'] as const;
// 1280: the sidebar beside the view; 760 and 600: the sidebar is a drawer behind the menu button (docs/ui.md).
export const WIDTHS = [1280, 760, 600] as const;
export type Theme = (typeof THEMES)[number];

/** One screen of the tour: how to reach it from anywhere, and how to leave it as it was. */
export interface Stop {
  name: string;
  open(app: AppPage): Promise<void>;
  close?(app: AppPage): Promise<void>;
}

const MEMORIES = [
  { content: 'The quarterly tax return is due at the end of April', category: 'finance', importance: 8, day: '2026-04-02' },
  { content: 'Paid the tax advisor invoice by bank transfer', category: 'finance', importance: 5 },
  { content: 'Dinner with Ana at the Lebanese place on Friday', category: 'social', importance: 4, day: '2026-11-20' },
  { content: 'Prefers window seats on long flights', category: 'travel', importance: 6 },
  { content: 'Allergic to penicillin — tell every new doctor', category: 'health', importance: 10 },
  { content: 'Started learning Portuguese with a weekly tutor', importance: 3 },
];

/**
 * Fills the host through its API: memories (one replaced by a newer one), user
 * model dimensions, a knowledge source, a failed ingest job, a second persona and a
 * second conversation.
 * The chat (with a tool call) is held on screen by `startTour`, through the fake model.
 */
export async function seedTour(host: Host): Promise<void> {
  const ids: string[] = [];
  for (const m of MEMORIES) ids.push((await host.call('memories.write', { persona: 'main', ...m })).id);
  const newer = await host.call('memories.write', { persona: 'main', content: 'Paid the tax advisor invoice in cash, not by transfer', category: 'finance', importance: 5 });
  await host.call('memories.supersede', { id: ids[1]!, by: newer.id, reason: 'corrected' });
  await host.call('userModel.upsert', { persona: 'main', dimension: 'preferences', content: 'Prefers short answers with the command first', confidence: 8 });
  await host.call('userModel.upsert', { persona: 'main', dimension: 'goals', content: 'Run a half marathon in under two hours' });
  await host.call('knowledge.ingest', {
    persona: 'main',
    name: 'handbook.md',
    dataBase64: Buffer.from('# Handbook\n\nThe office opens at eight.\n\n## Holidays\n\nAsk two weeks ahead for time off.').toString('base64'),
  });
  // A password-protected PDF cannot be read: its ingest job fails with a readable error (the Jobs view shows it).
  await host.call('knowledge.ingest', { persona: 'main', name: 'locked.pdf', dataBase64: Buffer.from(makeEncryptedPdf()).toString('base64') });
  await host.call('personas.create', { name: 'Work' });
  // A second conversation, so the list shows one that is not open (its actions drawn quiet).
  await host.call('conversations.create', { persona: 'main', title: 'Packing list for Oslo' });
  await host.call('conversations.create', { persona: 'main', title: 'Marathon training' });
  await expect.poll(async () => (await host.call('knowledge.listSources', { persona: 'main' })).length, { timeout: 60_000 }).toBe(1);
  await expect
    .poll(async () => (await host.call('jobs.list', { queue: 'ingest' })).jobs.filter((j) => j.state === 'discarded').length, { timeout: 60_000 })
    .toBeGreaterThan(0);
}

/** Opens the app and holds a chat with one tool call in it (the fake model answers). */
export async function startTour(page: Page, host: Host, fake: FakeServer): Promise<AppPage> {
  const chat = installChatRoutes(fake);
  await page.goto(host.url);
  const app = new AppPage(page);
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(page);
  chat.push(
    { toolCalls: [{ name: 'memory', arguments: '{"action":"write","category":"sport","content":"Ran the Porto marathon in 3:58.","importance":8}' }] },
    { text: 'Saved it. **Well done** — that is a *sub-four* finish:\n\n- 42.2 km\n- 3:58\n\n```\npace = 5:39 min/km\n```' },
  );
  // Sent once the open conversation has loaded: loading it would replace a draft typed earlier.
  await expect(page.locator('[data-testid="conversation-open"][aria-current="true"]')).toBeVisible();
  await expect(page.getByTestId('chat-transcript')).toContainText('Say hello');
  await view.send('remember I ran the Porto marathon in 3:58');
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveCount(1);
  // A memory write and a second model turn: slow on a busy machine.
  await expect(view.assistant.last()).toContainText('Well done', { timeout: 60_000 });
  await view.waitIdle();
  return app;
}

/**
 * Opens, in a page of its own, a host that `seedTour` and `startTour` already prepared: the app
 * on the chat view, the held conversation (with its tool call) on screen.
 */
export async function openTour(page: Page, host: Host): Promise<AppPage> {
  await page.goto(host.url);
  const app = new AppPage(page);
  await app.ready();
  await app.go('chat');
  await expect(page.getByTestId('tool-call')).toBeVisible();
  await expect(new ChatPage(page).assistant.last()).toContainText('Well done');
  return app;
}

async function go(app: AppPage, view: ViewName): Promise<void> {
  await app.go(view);
}

/** The sidebar on screen: on a narrow window, its drawer opened. */
async function sidebar(app: AppPage): Promise<void> {
  if (await app.page.getByTestId('menu-button').isVisible()) await app.openMenu();
}

export const STOPS: Stop[] = [
  {
    name: 'chat',
    async open(app) {
      await go(app, 'chat');
      await expect(app.page.getByTestId('tool-call')).toBeVisible();
    },
  },
  {
    name: 'memories',
    async open(app) {
      await go(app, 'memories');
      await expect(app.memories.rows.first()).toBeVisible();
    },
  },
  {
    name: 'memory-search',
    async open(app) {
      await go(app, 'memories');
      await app.memories.searchFor('when is my tax return due');
      const first = app.memories.hits.first();
      await expect(first).toBeVisible();
      const numbers = first.locator('details.why-numbers');
      if ((await numbers.getAttribute('open')) === null) await numbers.locator('summary').click();
    },
    async close(app) {
      await app.memories.clearSearch();
    },
  },
  {
    name: 'user-model',
    async open(app) {
      await go(app, 'userModel');
      await expect(app.userModel.rows).toHaveCount(2);
    },
  },
  {
    name: 'knowledge',
    async open(app) {
      await go(app, 'knowledge');
      await expect(app.page.locator('[data-testid="source-row"][data-source="handbook.md"]')).toBeVisible();
      await app.page.getByTestId('knowledge-search').fill('time off');
      await expect(app.page.getByTestId('knowledge-hit').first()).toBeVisible();
    },
    async close(app) {
      await app.page.getByTestId('knowledge-search').fill('');
    },
  },
  {
    name: 'activity',
    async open(app) {
      await go(app, 'activity');
      await expect(app.page.getByTestId('activity-view')).toBeVisible();
    },
  },
  {
    name: 'jobs',
    async open(app) {
      await go(app, 'jobs');
      const failed = app.jobs.queue('ingest').locator('[data-testid="job-row"][data-state="discarded"]').first();
      await expect(failed).toBeVisible();
      await failed.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'settings-errors',
    async open(app) {
      await go(app, 'settings');
      const s = app.settings;
      await s.field('chat-base-url').fill('not a url');
      await s.field('chat-model').fill('');
      await s.saveButton('chat').click();
      await expect(s.fieldError('chat-base-url')).toBeVisible();
      await expect(s.fieldError('chat-model')).toBeVisible();
    },
  },
  {
    name: 'unsaved-dialog',
    async open(app) {
      // Leaving the settings with the bad edits above asks first.
      await sidebar(app);
      await app.page.getByTestId('nav-memories').click();
      await expect(app.page.getByTestId('unsaved-dialog')).toBeVisible();
    },
    async close(app) {
      await app.page.getByTestId('unsaved-discard').click();
      await expect(app.page.getByTestId('unsaved-dialog')).toHaveCount(0);
    },
  },
  {
    name: 'delete-persona-dialog',
    async open(app) {
      await sidebar(app);
      const id = await app.page.locator('[data-testid="persona-item"]').filter({ hasText: 'Work' }).getAttribute('data-persona-id');
      await app.personas.openDelete(id!);
      // Typed, so the red Delete button is enabled (a disabled one is exempt from the contrast rules).
      await app.page.getByTestId('delete-confirm-input').fill('Work');
      await expect(app.page.getByTestId('delete-confirm')).toBeEnabled();
    },
    async close(app) {
      await app.page.keyboard.press('Escape');
      await expect(app.personas.dialog).toHaveCount(0);
    },
  },
  {
    name: 'persona-form-dialog',
    async open(app) {
      await sidebar(app);
      const item = app.page.locator('[data-testid="persona-item"]').filter({ hasText: 'Work' });
      await item.hover();
      await item.getByTestId('persona-rename').click();
      // An emoji chosen, so the checked look is audited too; Escape leaves the persona as it was.
      await app.page.getByTestId('persona-rename-dialog').locator('label.avatar-choice', { hasText: '💼' }).click();
      await expect(app.page.getByTestId('avatar-preview')).toHaveText('💼');
    },
    async close(app) {
      await app.page.keyboard.press('Escape');
      await expect(app.page.getByTestId('persona-rename-dialog')).toHaveCount(0);
    },
  },
  {
    name: 'shortcuts-help',
    async open(app) {
      await sidebar(app);
      await app.page.getByTestId('shortcuts-button').click();
      await expect(app.page.getByTestId('shortcuts-help')).toBeVisible();
    },
    async close(app) {
      await app.page.keyboard.press('Escape');
      await expect(app.page.getByTestId('shortcuts-help')).toHaveCount(0);
    },
  },
];

/** Puts the page in one theme and width (the app follows the OS colour scheme). */
export async function setLook(page: Page, theme: Theme, width: number): Promise<void> {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  await page.setViewportSize({ width, height: 800 });
}

export interface Look {
  theme: Theme;
  width: number;
}

/** Every theme at every width. */
export const LOOKS: Look[] = THEMES.flatMap((theme) => WIDTHS.map((width) => ({ theme, width })));

/** Runs `visit` on every stop in the given look, leaving each stop as it found the app. */
export async function runTour(app: AppPage, look: Look, visit: (stop: Stop) => Promise<void>): Promise<void> {
  await setLook(app.page, look.theme, look.width);
  for (const stop of STOPS) {
    await stop.open(app);
    await visit(stop);
    await stop.close?.(app);
  }
}
