import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  // Every word the live region says, in order (the delete itself can be over in a blink).
  await app.page.evaluate(`(() => {
    const said = (window.said = []);
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="delete-step"]')?.textContent ?? '';
      if (text && said.at(-1) !== text) said.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  // The backup takes seconds, many more on a busy machine.
  test.setTimeout(180_000);
  await confirm.click();
  // A verified backup of the whole data folder comes first (seconds): the dialog stays and says so.
  await expect(dialog.getByTestId('delete-step')).toHaveText('Backing up…');
  await expect(confirm).toBeDisabled();
  await app.page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 150_000 });
  expect(await app.page.evaluate('window.said')).toEqual(['Backing up…', 'Deleting…']);

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
  test.setTimeout(180_000);
  await dialog.getByTestId('delete-confirm').click();
  await expect(dialog.getByTestId('delete-step')).toHaveText('Backing up…');
  // It closes once a verified backup of the whole data folder is taken (it can be restored from Settings → Data).
  await expect(dialog).toBeHidden({ timeout: 150_000 });

  await expect(app.personas.item('main')).toBeVisible();
  await expect(app.personas.counts('main')).toContainText('0 memories');
  await app.go('memories');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();
  expect((await host.call('memories.list', { persona: 'main' })).total).toBe(0);
});

test('a backup that fails before a deletion says so in the dialog and deletes nothing', async ({ host, openApp }) => {
  await host.call('personas.create', { name: 'Trader' });
  await host.call('memories.write', { persona: 'trader', content: 'Sold ACME at 44' });
  // A damaged disk: the backups folder's name is taken by a file, so no backup can be written.
  const backups = join(host.dataDir, 'backups');
  await rm(backups, { recursive: true, force: true });
  await writeFile(backups, 'not a folder');
  const app = new AppPage(await openApp());
  await app.ready();
  const dialog = await app.personas.openDelete('trader');
  await dialog.getByTestId('delete-confirm-input').fill('Trader');
  await dialog.getByTestId('delete-confirm').click();
  await expect(dialog.getByTestId('delete-error')).toContainText('Could not back up before deleting “Trader”, so nothing was deleted', { timeout: 60_000 });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('delete-step')).toHaveText('');
  await expect(dialog.getByTestId('delete-confirm')).toBeEnabled();
  expect((await host.call('memories.list', { persona: 'trader' })).items.map((m) => m.content)).toEqual(['Sold ACME at 44']);
  await app.page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(app.personas.item('trader')).toBeVisible();
});

test('an avatar picked when creating and changed when renaming shows in the sidebar; "🧑‍🏫 Teacher" is deleted by typing "Teacher"', async ({ host, openApp }) => {
  test.setTimeout(180_000);
  const teacher = (await host.call('personas.create', { name: '🧑‍🏫 Teacher' })).id;
  const app = new AppPage(await openApp());
  await app.ready();

  await app.page.getByTestId('persona-new').click();
  const create = app.page.getByTestId('persona-create-dialog');
  await create.getByTestId('persona-name-input').fill('Cook');
  // The name's first letter until something is picked; arrow keys move through the choices, as in any radio group.
  await expect(create.getByTestId('avatar-preview')).toHaveText('C');
  await create.locator('label.avatar-choice', { hasText: '🧑‍💻' }).click();
  await app.page.keyboard.press('ArrowRight');
  await expect(create.getByRole('radio', { name: '🧑‍🍳' })).toBeChecked();
  await expect(create.getByTestId('avatar-preview')).toHaveText('🧑‍🍳');
  for (const colorScheme of ['light', 'dark'] as const) {
    await app.page.emulateMedia({ colorScheme });
    await app.screenshot(`persona-avatar-picker-${colorScheme}`);
  }
  await app.page.emulateMedia({ colorScheme: 'light' });
  await create.getByTestId('persona-create').click();
  await expect(create).toBeHidden();
  await expect(app.personas.item('cook').locator('.persona-avatar')).toHaveText('🧑‍🍳');

  await app.personas.item('cook').hover();
  await app.personas.item('cook').getByTestId('persona-rename').click();
  const rename = app.page.getByTestId('persona-rename-dialog');
  await expect(rename.getByRole('radio', { name: '🧑‍🍳' })).toBeChecked();
  await rename.getByTestId('avatar-input').fill('ABC');
  await expect(rename.getByTestId('avatar-error')).toContainText('one emoji or one or two letters');
  await expect(rename.getByTestId('persona-rename-save')).toBeDisabled();
  await rename.getByTestId('avatar-input').fill('🍝');
  await expect(rename.getByTestId('avatar-preview')).toHaveText('🍝');
  await rename.getByTestId('persona-rename-save').click();
  await expect(rename).toBeHidden();
  await expect(app.personas.item('cook').locator('.persona-avatar')).toHaveText('🍝');
  expect((await host.call('personas.list', {})).find((p) => p.id === 'cook')).toMatchObject({ name: 'Cook', avatar: '🍝' });

  const dialog = await app.personas.openDelete(teacher);
  await expect(dialog.getByTestId('delete-confirm-hint')).toHaveText('Type 🧑‍🏫 Teacher to confirm (or just Teacher, without the emoji)');
  await dialog.getByTestId('delete-confirm-input').fill('Teach');
  await expect(dialog.getByTestId('delete-confirm')).toBeDisabled();
  await dialog.getByTestId('delete-confirm-input').fill(' Teacher ');
  await expect(dialog.getByTestId('delete-confirm')).toBeEnabled();
  for (const colorScheme of ['light', 'dark'] as const) {
    await app.page.emulateMedia({ colorScheme });
    await app.screenshot(`persona-delete-emoji-${colorScheme}`);
  }
  await dialog.getByTestId('delete-confirm').click();
  await expect(dialog).toBeHidden({ timeout: 150_000 });
  await expect(app.personas.item(teacher)).toHaveCount(0);
  expect((await host.call('personas.list', {})).map((p) => p.id)).toEqual(['main', 'cook']);
});

// These look at their own personas only: in personas of their own on the worker's shared host
// (e2e/README.md). The tests above count every persona, delete one or damage the folder: a host each.
test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('an emoji name keeps its whole emoji as the avatar, and the hover icons never cover the name', async ({ host, persona, openApp }) => {
    const teacher = (await host.call('personas.create', { name: `🧑‍🏫 Teacher ${persona.slice(-12)}` })).id;
    const app = new AppPage(await openApp());
    await app.ready();
    const item = app.personas.item(teacher);
    await expect(item.locator('.persona-avatar')).toHaveText('🧑‍🏫');
    await item.hover();
    await expect(item.getByTestId('persona-delete')).toBeVisible();
    const name = await item.getByTestId('persona-name').boundingBox();
    const icons = await item.locator('.persona-actions').boundingBox();
    expect(name!.x + name!.width).toBeLessThanOrEqual(icons!.x);
    await app.page.screenshot({ path: 'e2e-artifacts/screenshots/persona-hover.png', clip: { x: 0, y: 0, width: 300, height: 260 } });
  });

  test('sidebar counts follow writes, deletes, imports and documents at once, while another persona keeps changing', async ({ host, persona, openApp }) => {
    test.setTimeout(180_000);
    const busy = (await host.call('personas.create', { name: `Busy beside ${persona}` })).id;
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('memories');
    // Another persona keeps changing all through the test (an import, a chat extracting memories…): two writers
    // back to back, so the changes never pause long enough for a "wait until it settles" refresh.
    let busyWrites = 0;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        await host.call('memories.write', { persona: busy, content: `Busy note ${busyWrites + 1}` });
        busyWrites++;
      }
    };
    const stream = Promise.all([writer(), writer()]);
    try {
      await app.memories.create({ content: 'Watered the ferns' });
      await expect(app.personas.counts(persona)).toHaveText('1 memory · 0 docs', { timeout: 60_000 });
      await host.call('memories.write', { persona, content: 'Booked the dentist' });
      await expect(app.personas.counts(persona)).toHaveText('2 memories · 0 docs', { timeout: 60_000 });
      await app.memories.delete('Watered the ferns');
      await expect(app.personas.counts(persona)).toHaveText('1 memory · 0 docs', { timeout: 60_000 });
      await host.call('memories.importFrom', { persona, format: 'text', text: '- Likes green tea\n- Runs on Sundays\n' });
      await expect(app.personas.counts(persona)).toHaveText('3 memories · 0 docs', { timeout: 60_000 });
      await host.call('knowledge.ingest', { persona, name: 'ferns.md', dataBase64: Buffer.from('# Ferns\n\nMist them weekly.').toString('base64') });
      await expect(app.personas.counts(persona)).toHaveText('3 memories · 1 doc', { timeout: 60_000 });
    } finally {
      stop = true;
      await stream;
    }
    await expect(app.personas.counts(busy)).toHaveText(`${busyWrites} memories · 0 docs`, { timeout: 60_000 });
  });

  test('a failure shows as a readable toast with its error code', async ({ persona, openApp }) => {
    const app = new AppPage(await openApp());
    await app.ready();
    const before = await app.personas.names();
    const name = `Trader of ${persona}`;
    await app.personas.create(name);
    await app.page.getByTestId('persona-new').click();
    // The same name in other letters (names are compared without case): refused.
    await app.page.getByTestId('persona-name-input').fill(name.toLowerCase());
    await app.page.getByTestId('persona-create').click();
    const toast = app.errorToasts().first();
    await expect(toast.getByTestId('toast-code')).toHaveText('conflict');
    await expect(toast.getByTestId('toast-message')).toContainText('Could not create the persona');
    expect(await app.personas.names()).toEqual([...before, name]);
  });

  test('a renamed persona is called by its new name everywhere: chat header, system prompt, avatar', async ({ host, persona, openApp }) => {
    const app = new AppPage(await openApp());
    await app.ready();
    await app.personas.rename(persona, '🏡 Casa');
    await app.go('chat');
    await expect(app.page.getByTestId('chat-persona')).toHaveText('🏡 Casa remembers across conversations.');
    const prompt = await host.call('chat.prompt', { persona });
    expect(prompt.blocks.base).toContain('the persona "🏡 Casa"');
    expect(prompt.blocks.base).not.toContain(`"${persona}"`);
    // An emoji name's avatar is the whole emoji, not half of it.
    await expect(app.personas.item(persona).locator('.persona-avatar')).toHaveText('🏡');
  });
});
