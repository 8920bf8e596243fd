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

test('past chats are searched by their words and a hit opens in place; each message shows its time and copies', async ({ host, persona, fake, openApp, context }) => {
  const chat = installChatRoutes(fake!);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Two earlier conversations, seeded through the API; the newest is the one the view opens.
  const garden = await host.call('conversations.create', { persona, title: 'Garden' });
  chat.push({ text: 'Sow the **beans** after the last frost, in a sunny bed.' });
  await host.call('chat.send', { persona, conversation: garden.id, text: 'when do I sow beans?' });
  for (let i = 0; i < 12; i++) {
    chat.push({ text: `Filler answer number ${i} about something else entirely.` });
    await host.call('chat.send', { persona, conversation: garden.id, text: `filler question ${i}` });
  }
  const trip = await host.call('conversations.create', { persona, title: 'Porto' });
  chat.push({ text: 'Try the francesinha.' });
  await host.call('chat.send', { persona, conversation: trip.id, text: 'what to eat in Porto?' });

  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);
  await expect(view.assistant.last()).toHaveText('Try the francesinha.');

  // Each message says when it was written (time of day; the full date on hover), and copies as written.
  const answer = await host.call('chat.history', { persona, conversation: trip.id });
  const reply = answer.messages.find((m) => m.content === 'Try the francesinha.')!;
  const meta = app.page.locator(`[data-testid="chat-message-meta"][data-message-id="${reply.id}"]`);
  const time = await app.page.evaluate((iso) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso)), reply.createdAt);
  await expect(meta.getByTestId('chat-message-time')).toHaveText(time);
  await meta.getByTestId('chat-copy').click();
  await expect(meta.getByTestId('chat-copy')).toHaveText('Copied');
  expect(await app.page.evaluate('navigator.clipboard.readText()')).toBe('Try the francesinha.');

  // Words from an answer in the other conversation, stemmed ("frosts"): the hit names its chat.
  await app.page.getByTestId('conversation-search').fill('frosts beans');
  const hit = app.page.getByTestId('conversation-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText('Garden');
  await expect(hit).toContainText('Sow the beans after the last frost');
  // The hits stand in for the list while the search is typed.
  await expect(app.page.getByTestId('conversation').first()).toBeHidden();
  await app.screenshot('chat-search');
  await app.page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('chat-search-dark');
  await hit.click();
  // The conversation opens at that message, marked, in view (not at the end, twelve exchanges later).
  const found = app.page.locator('[data-testid="chat-message"][data-found="true"]');
  await expect(found).toContainText('Sow the beans after the last frost');
  await expect(found).toBeInViewport();
  await expect(view.assistant.last()).not.toBeInViewport();
  await expect(app.page.locator('[data-testid="conversation"] [aria-current="true"]')).toHaveText('Garden');

  // Words no message holds: said plainly.
  await app.page.getByTestId('conversation-search').fill('zeppelin');
  await expect(app.page.getByTestId('conversation-hits-empty')).toHaveText('No message holds these words.');
  await app.page.getByTestId('conversation-search').fill('');
  await expect(app.page.getByTestId('conversation')).toHaveCount(2);
  await expect(app.errorToasts()).toHaveCount(0);
});
