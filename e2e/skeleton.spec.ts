import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

test('create a persona, switch to it, add a memory, reload: it is still there', async ({ host, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  expect(await app.personas.names()).toEqual(['main']);

  await app.personas.create('Trader');
  // Creating switches to the new persona.
  await expect.poll(() => app.activePersona()).toBe('trader');
  await app.personas.switchTo('main');
  await app.personas.switchTo('trader');

  await app.go('memories');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  await app.memories.create({ content: 'Bought 10 shares of ACME at 41.20', category: 'trades', importance: 7 });
  await expect(app.personas.counts('trader')).toContainText('1 memory');

  await app.page.reload();
  await app.ready();
  await expect.poll(() => app.activePersona()).toBe('trader');
  await expect(app.memories.row('Bought 10 shares of ACME at 41.20')).toBeVisible();
  await expect(app.memories.row('Bought 10 shares of ACME at 41.20').getByTestId('memory-category')).toHaveText('trades');

  // The memory belongs to the persona that was active: main has none, and the core agrees.
  await app.personas.switchTo('main');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  const page = await host.call('memories.list', { persona: 'trader' });
  expect(page.items.map((m) => m.content)).toEqual(['Bought 10 shares of ACME at 41.20']);
});

// Writes nothing: on the worker's shared host, in a persona of its own (e2e/README.md).
test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('keyboard: / focuses search, n opens a new memory, ? shows the shortcuts', async ({ openApp }) => {
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('settings');
    await app.page.keyboard.press('n');
    await expect(app.memories.view).toBeVisible();
    const content = app.memories.view.getByTestId('memory-content-input');
    await expect(content).toBeFocused();
    // Typing "n" in a field types it, it does not open another editor.
    await content.pressSequentially('note');
    await expect(content).toHaveValue('note');
    await app.screenshot('memory-editor');
    await content.press('Escape');
    await expect(content).toBeHidden();

    await app.page.keyboard.press('Control+k');
    await expect(app.memories.search).toBeFocused();
    await app.memories.search.press('Escape');
    await app.page.keyboard.press('?');
    await expect(app.page.getByTestId('shortcuts-help')).toBeVisible();
    await expect(app.page.getByTestId('shortcuts-help')).toContainText('Alt+1');
  });
});

test('every view renders in light and dark themes, down to 900 px wide (screenshots)', async ({ host, page, openApp }) => {
  await host.call('personas.create', { name: 'Trader' });
  await host.call('memories.write', { persona: 'main', content: 'Moved to Lyon for the new job', category: 'life', importance: 9, day: '2026-03-03' });
  await host.call('memories.write', { persona: 'main', content: 'Prefers trains over planes for trips under 6 hours', category: 'travel', importance: 6, day: '2026-03-03' });
  await host.call('memories.write', { persona: 'main', content: 'Finished the first draft of the grant proposal', category: 'work', importance: 7 });
  await host.call('userModel.upsert', { persona: 'main', dimension: 'working_patterns', content: 'Deep work in the mornings, meetings after 2 pm', confidence: 7 });
  const app = new AppPage(await openApp(page));
  await app.ready();
  const views = ['chat', 'memories', 'userModel', 'knowledge', 'activity', 'jobs', 'settings'] as const;
  for (const view of views) {
    await app.go(view);
    await expect(app.page.getByTestId('main').locator('h1').first()).toBeVisible();
    // The other views' screenshots come from their own specs, with richer data in them.
    if (view === 'chat' || view === 'memories') await app.screenshot(view);
  }

  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  expect(bg).not.toBe('rgb(247, 247, 245)');
  await app.go('memories');
  await expect(app.memories.rows).toHaveCount(3);
  await app.screenshot('memories-dark');

  await page.setViewportSize({ width: 900, height: 700 });
  for (const view of ['memories', 'jobs', 'userModel'] as const) {
    await app.go(view);
    // Nothing spills sideways at the narrowest supported width.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(900);
  }
  await app.go('memories');
  await app.screenshot('memories-900px');
});
