import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

// Conversations belong to a persona: this test's own, on the worker's shared host (e2e/README.md).
test.use({ fakeOpenAI: true, sharedHost: true });

test('conversations: create, switch, rename, delete with undo; each keeps its transcript and draft', async ({ host, persona, fake, openApp }) => {
  const chat = installChatRoutes(fake!);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);
  const items = app.page.getByTestId('conversation');
  const item = (label: string) => items.filter({ hasText: label });

  chat.push({ text: 'Intervals on Tuesday.' });
  await view.send('plan my running week');
  await expect(view.assistant.last()).toHaveText('Intervals on Tuesday.');
  await view.waitIdle();
  await expect(item('plan my running week')).toHaveCount(1);

  // A new chat starts empty; the first one stays in the list.
  await app.page.getByTestId('new-chat').click();
  await expect(view.messages).toHaveCount(0);
  chat.push({ text: 'Lisbon has great tiles.' });
  await view.send('tell me about Lisbon');
  await expect(view.assistant.last()).toHaveText('Lisbon has great tiles.');
  await view.waitIdle();
  await expect(items).toHaveCount(2);
  // The model saw only this conversation.
  expect(chat.requests.at(-1)!.messages.map((m) => m.content)).not.toContain('plan my running week');

  // A draft stays with its conversation.
  await view.input.fill('and the trams?');
  await item('plan my running week').getByTestId('conversation-open').click();
  await expect(view.assistant.last()).toHaveText('Intervals on Tuesday.');
  await expect(view.input).toHaveValue('');
  await item('tell me about Lisbon').getByTestId('conversation-open').click();
  await expect(view.assistant.last()).toHaveText('Lisbon has great tiles.');
  await expect(view.input).toHaveValue('and the trams?');

  // Rename.
  await item('plan my running week').getByTestId('conversation-rename').click();
  await app.page.getByTestId('conversation-title-input').fill('Running');
  await app.page.getByTestId('conversation-title-input').press('Enter');
  await expect(item('Running').getByTestId('conversation-open')).toHaveText('Running');
  await app.screenshot('chat-conversations');

  // Delete, then Undo: nothing is lost.
  await item('Running').getByTestId('conversation-delete').click();
  await expect(items).toHaveCount(1);
  await app.toasts.filter({ hasText: 'Conversation deleted' }).getByTestId('toast-action').click();
  await expect(items).toHaveCount(2);
  await app.page.waitForTimeout(7000);
  expect(await host.call('conversations.list', { persona })).toHaveLength(2);

  // Delete for real: gone after the undo window, its memories-free transcript with it.
  await item('Running').getByTestId('conversation-delete').click();
  await expect(items).toHaveCount(1);
  await expect.poll(async () => (await host.call('conversations.list', { persona })).length, { timeout: 60_000 }).toBe(1);
  await app.page.reload();
  await app.ready();
  await app.go('chat');
  await expect(items).toHaveCount(1);
  await expect(view.assistant.last()).toHaveText('Lisbon has great tiles.');
  await expect(app.errorToasts()).toHaveCount(0);
});
