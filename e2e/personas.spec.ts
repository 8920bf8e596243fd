import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

test('create, rename and switch personas: the screen follows the active one', async ({ host, openApp }) => {
  await host.call('memories.write', { persona: 'main', content: 'Main persona memory' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await expect(app.memories.row('Main persona memory')).toBeVisible();

  await app.personas.create('Writer');
  await expect.poll(() => app.activePersona()).toBe('writer');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  await app.memories.create({ content: 'Chapter three needs a new ending' });

  await app.personas.rename('writer', 'Novelist');
  expect(await app.personas.names()).toEqual(['main', 'Novelist']);
  expect((await host.call('personas.list', {})).map((p) => p.name)).toEqual(['main', 'Novelist']);

  // Alt+1 switches to the first persona, Alt+2 back.
  await app.page.keyboard.press('Alt+1');
  await expect(app.personas.item('main')).toHaveAttribute('data-active', 'true');
  await expect(app.memories.row('Main persona memory')).toBeVisible();
  await expect(app.memories.row('Chapter three needs a new ending')).toHaveCount(0);
  await app.page.keyboard.press('Alt+2');
  await expect(app.memories.row('Chapter three needs a new ending')).toBeVisible();
  await expect(app.memories.row('Main persona memory')).toHaveCount(0);
});

test('deleting a persona names what goes, needs its name typed, and its data is gone after reload', async ({ host, openApp }) => {
  await host.call('personas.create', { name: 'Trader' });
  await host.call('memories.write', { persona: 'trader', content: 'Sold ACME at 44' });
  await host.call('memories.write', { persona: 'trader', content: 'Bought BOLT at 12' });
  await host.call('memories.write', { persona: 'main', content: 'Keep me' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.personas.switchTo('trader');

  const dialog = await app.personas.openDelete('trader');
  await expect(dialog.getByTestId('delete-counts')).toContainText('2 memories');
  const confirm = dialog.getByTestId('delete-confirm');
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId('delete-confirm-input').fill('trader'); // the id, not the name
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId('delete-confirm-input').fill('Trader');
  await expect(confirm).toBeEnabled();
  await app.screenshot('delete-persona');
  await confirm.click();
  // It closes once a verified backup of the whole data folder is taken (it can be restored from Settings → Data).
  await expect(dialog).toBeHidden({ timeout: 60_000 });

  await expect(app.personas.item('trader')).toHaveCount(0);
  await expect.poll(() => app.activePersona()).toBe('main');

  await app.page.reload();
  await app.ready();
  expect(await app.personas.names()).toEqual(['main']);
  const gone = await host.api('memories.list', { persona: 'trader' });
  expect(gone.ok).toBe(false);
  // Only the deleted persona's data went.
  expect((await host.call('memories.list', { persona: 'main' })).items.map((m) => m.content)).toEqual(['Keep me']);
});

test('main can be emptied but not removed', async ({ host, openApp }) => {
  await host.call('memories.write', { persona: 'main', content: 'Something to forget' });
  const app = new AppPage(await openApp());
  await app.ready();
  const dialog = await app.personas.openDelete('main');
  await expect(dialog.getByTestId('main-note')).toContainText('can be emptied but not removed');
  await expect(dialog.getByTestId('delete-counts')).toContainText('1 memory');
  await dialog.getByTestId('delete-confirm-input').fill('main');
  await dialog.getByTestId('delete-confirm').click();
  // It closes once a verified backup of the whole data folder is taken (it can be restored from Settings → Data).
  await expect(dialog).toBeHidden({ timeout: 60_000 });

  await expect(app.personas.item('main')).toBeVisible();
  await expect(app.personas.counts('main')).toContainText('0 memories');
  await app.go('memories');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  expect((await host.call('memories.list', { persona: 'main' })).total).toBe(0);
});

test('a failure shows as a readable toast with its error code', async ({ openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.personas.create('Trader');
  await app.page.getByTestId('persona-new').click();
  await app.page.getByTestId('persona-name-input').fill('trader');
  await app.page.getByTestId('persona-create').click();
  const toast = app.errorToasts().first();
  await expect(toast.getByTestId('toast-code')).toHaveText('conflict');
  await expect(toast.getByTestId('toast-message')).toContainText('Could not create the persona');
  expect(await app.personas.names()).toEqual(['main', 'Trader']);
});

test('a renamed persona is called by its new name everywhere: chat header, system prompt, avatar', async ({ host, openApp }) => {
  await host.call('personas.create', { name: 'Home' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.personas.switchTo('home');
  await app.personas.rename('home', '🏡 Casa');
  await app.go('chat');
  await expect(app.page.getByTestId('chat-persona')).toHaveText('🏡 Casa remembers across conversations.');
  const prompt = await host.call('chat.prompt', { persona: 'home' });
  expect(prompt.blocks.base).toContain('the persona "🏡 Casa"');
  expect(prompt.blocks.base).not.toContain('"home"');
  // An emoji name's avatar is the whole emoji, not half of it.
  await expect(app.personas.item('home').locator('.persona-avatar')).toHaveText('🏡');
});
