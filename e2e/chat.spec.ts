import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

test.describe('with a chat model', () => {
  test.use({ fakeOpenAI: true });

  test('chat a few turns: streamed reply, a memory chip, the memory in the browser, the prompt panel, stop', async ({ host, fake, openApp }) => {
    const chat = installChatRoutes(fake!);
    installEmbeddings(fake!, { dimensions: 16 });
    await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: fake!.baseURL, model: 'fake-embed', dimensions: 16 } });
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('chat');
    const view = new ChatPage(app.page);

    chat.push({ text: 'Hello! Nice to meet you.', chunks: 6 });
    await view.send('hi there');
    await expect(view.assistant.last()).toHaveText('Hello! Nice to meet you.');
    await view.waitIdle();

    chat.push(
      { toolCalls: [{ name: 'memory', arguments: '{"action":"write","category":"sport","content":"Ran the Porto marathon in 3:58.","importance":8}' }] },
      { text: 'Congratulations on the marathon — I will remember that.' },
    );
    await view.send('I ran the Porto marathon today in 3:58!');
    await expect(view.assistant.last()).toContainText('Congratulations on the marathon');
    const tool = app.page.locator('[data-testid="tool-call"][data-tool="memory"]');
    await expect(tool).toBeVisible();
    await expect(view.chips).toHaveCount(1);
    // Tool calls are collapsed until opened.
    await expect(tool.getByTestId('tool-result')).toBeHidden();
    await tool.locator('summary').click();
    await expect(tool.getByTestId('tool-result')).toContainText('Saved memory');

    // Streaming: the reply shows token by token while the model is still answering; Stop keeps it, marked.
    chat.push({ hang: true, text: 'Let me think about your training plan' });
    await view.send('what should I train next?');
    await expect(view.assistant.last()).toHaveText('Let me think about your training plan');
    await expect(view.stop).toBeVisible();
    await view.stop.click();
    // Marked as stopped with a badge, not with literal text.
    await expect(view.assistant.last().getByTestId('chat-stopped')).toHaveText('Stopped');
    await expect(view.assistant.last()).not.toContainText('[stopped]');
    await view.waitIdle();
    await expect(app.page.getByTestId('chat-error')).toHaveCount(0);

    // The prompt panel shows what the model is sent: the system prompt's blocks.
    const panel = await view.openPrompt();
    await expect(panel).toContainText('## User model (call `user_model_write` to update a dimension)');
    await expect(panel).toContainText('## Top memories for this persona');
    const sent = chat.requests.at(-1)!.messages[0]!.content!;
    expect(sent).toContain('## Top memories for this persona');
    await expect(panel.getByTestId('prompt-block').first()).toHaveText(sent.split('\n\n## User model')[0]!);
    await app.page.locator('[data-testid="tool-call"] summary').first().click();
    await app.screenshot('chat-with-prompt-panel');

    // The chip leads to the memory in the memory browser.
    const stored = (await host.call('memories.list', { persona: 'main' })).items;
    expect(stored.map((m) => [m.content, m.origin])).toEqual([['Ran the Porto marathon in 3:58.', 'explicit']]);
    await expect(view.chips.first()).toHaveAttribute('data-memory-id', stored[0]!.id);
    await view.chips.first().click();
    await expect(app.page.getByTestId('nav-memories')).toHaveAttribute('aria-current', 'page');
    // Shown in the browser: the row of that memory, highlighted.
    await expect(app.page.locator(`[data-testid="memory-row"][data-memory-id="${stored[0]!.id}"][data-highlighted="true"]`)).toBeVisible();

    // The conversation survives a restart of the app.
    await app.go('chat');
    await expect(view.assistant.last().getByTestId('chat-stopped')).toBeVisible();
    const shown = await view.messages.count();
    expect(shown).toBeGreaterThanOrEqual(6);
    await host.restart();
    await app.page.reload();
    await app.ready();
    await app.go('chat');
    await expect(view.messages).toHaveCount(shown);
    await expect(view.assistant.first()).toHaveText('Hello! Nice to meet you.');

    // /clear empties the transcript (with Undo for a few seconds); the memory stays.
    await view.send('/clear');
    await expect(view.messages).toHaveCount(0);
    await expect.poll(async () => (await host.call('chat.history', { persona: 'main' })).messages.length, { timeout: 60_000 }).toBe(0);
    expect((await host.call('memories.list', { persona: 'main' })).total).toBe(1);
    await expect(app.errorToasts()).toHaveCount(0);
  });
});

// Only reads the screen: on the worker's shared host, whose chat model is set only while a test
// that asked for the fake one runs (e2e/README.md).
test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('without a chat model the view says how to configure one, and links to Settings', async ({ openApp }) => {
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('chat');
    await expect(app.page.getByTestId('chat-not-configured')).toContainText('No chat model is configured');
    await expect(app.page.getByTestId('chat-input')).toBeDisabled();
    await app.page.getByTestId('chat-open-settings').click();
    await expect(app.page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  });
});
