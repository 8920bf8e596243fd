import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

// Each test's persona on the worker's shared host; with the fake model on, the host's chat settings
// are set back afterwards (e2e/README.md). docs/privacy.md describes both features.
test.use({ fakeOpenAI: true, sharedHost: true });

test('local only: the privacy switch says what stops with a cloud chat model, and the persona list shows a lock', async ({ host, persona, openApp }) => {
  await host.call('settings.set', { chat: { baseUrl: null, model: 'gpt-4o-mini' } });
  const app = new AppPage(await openApp());
  await app.ready();
  const item = app.page.locator(`[data-testid="persona-item"][data-persona-id="${persona}"]`);
  await expect(item.getByTestId('persona-local-only-mark')).toHaveCount(0);

  await item.hover();
  await item.getByRole('button', { name: /^Edit / }).click();
  const dialog = app.page.getByTestId('persona-rename-dialog');
  await dialog.getByRole('checkbox', { name: /Local only/ }).check();
  await expect(dialog.getByTestId('persona-local-only-check')).toContainText(
    /Chat uses api\.openai\.com: chats in “E2E [^”]+” \(and its memory review, compaction and search help\) will be refused until you choose a chat model on this computer/,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The mark is a word for a screen reader, and a lock a person sees.
  await expect(item.getByRole('button', { name: /local only/ })).toBeVisible();
  await expect(item.getByTestId('persona-local-only-mark')).toHaveText('🔒');
  expect((await host.call('personas.list', {})).find((p) => p.id === persona)?.localOnly).toBe(true);
});

test('incognito chat: started from its own button, marked in words, and gone once closed', async ({ host, persona, fake, openApp }) => {
  const chat = installChatRoutes(fake!);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);
  const banner = app.page.getByTestId('incognito-banner');
  await expect(banner).toHaveCount(0);

  await app.page.getByTestId('new-incognito-chat').click();
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Incognito — nothing from this chat is remembered.');
  chat.push({ text: 'Just between us.' });
  await view.send('a secret plan');
  await expect(view.assistant.last()).toHaveText('Just between us.');
  await view.waitIdle();
  const entry = app.page.getByTestId('conversation').filter({ hasText: 'a secret plan' });
  await expect(entry.getByTestId('conversation-incognito')).toHaveText('Incognito');
  expect(chat.requests.at(-1)!.tools?.map((t) => t.function.name)).not.toContain('memory');

  await banner.getByTestId('incognito-close').click();
  await expect(banner).toHaveCount(0);
  await expect(entry).toHaveCount(0);
  expect(await host.call('conversations.list', { persona })).toEqual([]);
});
