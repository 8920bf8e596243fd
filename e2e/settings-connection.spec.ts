import { createServer } from 'node:net';
import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { installModels } from '../src/core/testing/fake-openai/models';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

test.use({ fakeOpenAI: true });

/** A port nothing listens on: bound, noted, released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('Test connection: the model answers and its list fills the picker; a closed port gives the exact error', async ({ host, fake, openApp }) => {
  const chat = installChatRoutes(fake!);
  installEmbeddings(fake!, { dimensions: 16 });
  installModels(fake!, ['fake-chat', 'fake-chat-large', 'fake-embed']);
  await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: fake!.baseURL, model: 'fake-embed', dimensions: 16 } });
  chat.push({ text: 'Connection works.' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('settings');

  // The browser host keeps keys in a private file, and says so (the desktop app: the OS keychain).
  await expect(app.page.getByTestId('key-storage')).toHaveText(`Where keys are kept: Not encrypted: kept in ${host.dataDir}/secrets.json, a file only your user account can read.`);

  await app.page.getByTestId('chat-test-connection').click();
  const result = app.page.getByTestId('chat-connection-result');
  await expect(result).toHaveText(/^Connected in \d+ ms\. fake-chat answered: “Connection works\.”$/);
  await expect(app.page.locator('#chat-models option')).toHaveCount(3);
  expect(await app.page.locator('#chat-models option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).toEqual([
    'fake-chat',
    'fake-chat-large',
    'fake-embed',
  ]);
  // One real request reached the server.
  expect(chat.requests.at(-1)!.messages.at(-1)!.content).toContain('connection test');

  await app.page.getByTestId('embeddings-test-connection').click();
  await expect(app.page.getByTestId('embeddings-connection-result')).toHaveText(/^Connected in \d+ ms\. fake-embed returned a vector of 16 dimensions\.$/);

  // Unsaved edits are what the test uses: the model typed, not the one saved, answers; nothing is saved.
  chat.push({ text: 'The large one here.' });
  await app.page.getByTestId('chat-model').fill('fake-chat-large');
  await app.page.getByTestId('chat-test-connection').click();
  await expect(result).toHaveText(/^Connected in \d+ ms\. fake-chat-large answered: “The large one here\.”$/);
  expect(chat.requests.at(-1)!.model).toBe('fake-chat-large');
  expect((await host.call('settings.get', {})).chat.model).toBe('fake-chat');
  // A server typed with no model yet: the test lists its models to pick from, before any save.
  await app.page.reload();
  await app.ready();
  await app.go('settings');
  await expect(app.page.locator('#chat-models option')).toHaveCount(0);
  await app.page.getByTestId('chat-model').fill('');
  // Leaving the field shows its "name the model" line, which moves the button down: leave it first.
  await app.page.getByTestId('chat-model').blur();
  await app.page.getByTestId('chat-test-connection').click();
  await expect(result).toHaveText('Failed: Pick a model: this server lists 3 models in the Model field.');
  await expect(app.page.locator('#chat-models option')).toHaveCount(3);
  await expect(app.page.getByText('3 models on this server: pick one or type a name.')).toBeVisible();
  await app.screenshot('settings-connection-unsaved');
  // A base URL that is not one cannot be tested, and the form says why.
  await app.page.getByTestId('chat-base-url').fill('not a url');
  await expect(app.page.getByTestId('chat-test-connection')).toBeDisabled();
  await expect(app.page.getByTestId('chat-connection')).toContainText('Fix the base URL to test it.');
  await app.page.getByTestId('chat-base-url').fill(fake!.baseURL);
  await app.page.getByTestId('chat-model').fill('fake-chat');

  const port = await closedPort();
  await host.call('settings.set', { chat: { baseUrl: `http://127.0.0.1:${port}/v1` } });
  await app.page.reload();
  await app.ready();
  await app.go('settings');
  await app.page.getByTestId('chat-test-connection').click();
  await expect(app.page.getByTestId('chat-connection-result')).toHaveText(
    new RegExp(`^Failed: Cannot reach the chat model at http://127\\.0\\.0\\.1:${port}/v1\\. Is the server running\\?`),
  );
  await expect(app.errorToasts()).toHaveCount(0);
});
