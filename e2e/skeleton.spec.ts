import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

test('create a persona, switch to it, add a memory, reload: it is still there', async ({ host, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  expect(await app.personas.names()).toEqual(['main']);

  await app.personas.create('Trader');
  // Creating switches to the new persona.
  expect(await app.activePersona()).toBe('trader');
  await app.personas.switchTo('main');
  await app.personas.switchTo('trader');

  await app.go('memories');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  await app.memories.create({ content: 'Bought 10 shares of ACME at 41.20', category: 'trades', importance: 7 });
  await expect(app.personas.counts('trader')).toContainText('1 memory');
  await app.screenshot('memories');

  await app.page.reload();
  await app.ready();
  expect(await app.activePersona()).toBe('trader');
  await expect(app.memories.row('Bought 10 shares of ACME at 41.20')).toBeVisible();
  await expect(app.memories.row('Bought 10 shares of ACME at 41.20').getByTestId('memory-category')).toHaveText('trades');

  // The memory belongs to the persona that was active: main has none, and the core agrees.
  await app.personas.switchTo('main');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  const page = await host.call('memories.list', { persona: 'trader' });
  expect(page.items.map((m) => m.content)).toEqual(['Bought 10 shares of ACME at 41.20']);
});
