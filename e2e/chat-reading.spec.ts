import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { ChatPage } from './pages/ChatPage';

// What a person reads in the chat: rendered Markdown, tool calls in words, Retry / Regenerate, Undo on clear.
// Each test in a persona of its own on the worker's shared host (e2e/README.md); the fixture points
// the host's chat model at this test's fake and takes it away again afterwards.
test.use({ fakeOpenAI: true, sharedHost: true });

const REPLY = [
  'Here is the **plan**:',
  '',
  '- warm up',
  '- run *intervals*',
  '',
  'Run `npm test`, see [the docs](https://example.com/docs), and:',
  '',
  '```js',
  'const pace = 5; // min/km',
  '```',
  '',
  '<img src=x onerror="window.__pwned = 1">',
].join('\n');

test('replies render as Markdown, links leave the app, code blocks copy', async ({ fake, openApp, context }) => {
  const chat = installChatRoutes(fake!);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);

  chat.push({ text: REPLY, chunks: 8 });
  await view.send('plan my session');
  const answer = view.assistant.last();
  await expect(answer.locator('strong')).toHaveText('plan');
  await expect(answer.locator('li')).toHaveText(['warm up', 'run intervals']);
  await expect(answer.locator('em')).toHaveText('intervals');
  await expect(answer.locator('p code')).toHaveText('npm test');
  await expect(answer).not.toContainText('**');
  await expect(answer).not.toContainText('```');
  // Raw HTML is not rendered, and not run.
  await expect(answer.locator('img')).toHaveCount(0);
  expect(await app.page.evaluate('window.__pwned')).toBeUndefined();
  const link = answer.getByRole('link', { name: 'the docs' });
  await expect(link).toHaveAttribute('href', 'https://example.com/docs');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  // The code block is highlighted (token classes, no inline styles) and copies its text.
  const block = answer.locator('.md-code');
  await expect(block.locator('.hljs-keyword').first()).toHaveText('const');
  expect(await answer.locator('[style]').count()).toBe(0);
  await block.hover();
  await block.getByTestId('code-copy').click();
  await expect(block.getByTestId('code-copy')).toHaveText('Copied');
  expect(await app.page.evaluate('navigator.clipboard.readText()')).toBe('const pace = 5; // min/km');
  await app.screenshot('chat-markdown');
});

test('a failed turn offers Retry, the last answer Regenerate; tool calls read as words without ids', async ({ host, persona, fake, openApp }) => {
  const chat = installChatRoutes(fake!);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);

  chat.push({ error: 500, message: 'upstream exploded' });
  await view.send('remember I ran the Porto marathon');
  const banner = app.page.getByTestId('chat-error');
  await expect(banner).toBeVisible();
  chat.push(
    { toolCalls: [{ name: 'memory', arguments: '{"action":"write","category":"sport","content":"Ran the Porto marathon.","importance":8}' }] },
    { text: 'Saved it.' },
  );
  await banner.getByTestId('chat-retry').click();
  await expect(view.assistant.last()).toHaveText(/Saved it\./);
  await expect(banner).toHaveCount(0);
  // One question in the transcript, not two.
  await expect(app.page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveCount(1);

  const tool = app.page.getByTestId('tool-call');
  await expect(tool.getByTestId('tool-summary')).toHaveText('Save a memory: “Ran the Porto marathon.”');
  await tool.getByTestId('tool-summary').click();
  await expect(tool.getByTestId('tool-result')).toHaveText(/^Saved memory \[sport/);
  const [memory] = (await host.call('memories.list', { persona })).items;
  await expect(app.page.getByTestId('chat-transcript')).not.toContainText(memory!.id);
  await expect(app.page.getByTestId('chat-transcript')).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/);

  chat.push({ text: 'Congratulations, saved.' });
  await app.page.getByTestId('chat-regenerate').click();
  await expect(view.assistant.last()).toHaveText(/Congratulations, saved\./);
  await expect(app.page.getByText('Saved it.')).toHaveCount(0);
  const stored = (await host.call('chat.history', { persona })).messages;
  expect(stored.map((m) => m.content)).toEqual(['remember I ran the Porto marathon', 'Congratulations, saved.']);
});

test('clear can be undone; the draft survives a visit to another view', async ({ host, persona, fake, openApp }) => {
  const chat = installChatRoutes(fake!);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);
  chat.push({ text: 'First answer.' });
  await view.send('first question');
  await expect(view.assistant.last()).toHaveText('First answer.');
  await view.waitIdle();

  await app.page.getByTestId('chat-clear').click();
  await expect(view.messages).toHaveCount(0);
  await app.toasts.getByTestId('toast-action').click();
  await expect(view.messages).toHaveCount(2);
  // Undone: nothing was deleted, even after the undo window.
  await app.page.waitForTimeout(7000);
  expect((await host.call('chat.history', { persona })).messages).toHaveLength(2);

  await view.input.fill('a half-written thought');
  await app.go('memories');
  await app.go('chat');
  await expect(view.input).toHaveValue('a half-written thought');

  await view.send('/clear');
  await expect(view.messages).toHaveCount(0);
  await expect.poll(async () => (await host.call('chat.history', { persona })).messages.length, { timeout: 60_000 }).toBe(0);
});

test('the newest question can be edited and sent again: the answer to the old wording goes', async ({ fake, openApp }) => {
  const chat = installChatRoutes(fake!);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('chat');
  const view = new ChatPage(app.page);
  chat.push({ text: 'Hello.' });
  await view.send('hi');
  await expect(view.assistant.last()).toHaveText('Hello.');
  chat.push({ text: 'Paris has the Louvre.' });
  await view.send('what is in Pairs?');
  await expect(view.assistant.last()).toHaveText('Paris has the Louvre.');
  await view.waitIdle();

  // Only the newest question offers Edit.
  await expect(app.page.getByTestId('chat-edit-open')).toHaveCount(1);
  await app.page.getByTestId('chat-edit-open').click();
  const input = app.page.getByTestId('chat-edit-input');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('what is in Pairs?');
  chat.push({ text: 'Lyon has the traboules.' });
  await input.fill('what is in Lyon?');
  await input.press('Enter');
  await expect(view.assistant.last()).toHaveText('Lyon has the traboules.');
  await view.waitIdle();
  await expect(view.messages).toHaveText(['hi', 'Hello.', 'what is in Lyon?', 'Lyon has the traboules.']);
  await app.screenshot('chat-edited');
  // As stored: the reload shows the same.
  await app.page.reload();
  await app.ready();
  await app.go('chat');
  await expect(view.messages).toHaveText(['hi', 'Hello.', 'what is in Lyon?', 'Lyon has the traboules.']);
  expect(chat.requests.at(-1)!.messages.map((m) => m.content)).not.toContain('what is in Pairs?');
});
