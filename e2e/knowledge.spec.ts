import type { Locator, Page } from '@playwright/test';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../src/core/testing/fake-openai/server';
import { knownSentence, makeBookPdf, makeEncryptedPdf } from '../src/core/testing/test-pdfs';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

/** The Knowledge view and the window-wide drop target. */
class KnowledgePage {
  readonly ingests: Locator;
  readonly search: Locator;
  readonly hits: Locator;
  constructor(readonly page: Page) {
    this.ingests = page.getByTestId('ingest-row');
    this.search = page.getByTestId('knowledge-search');
    this.hits = page.getByTestId('knowledge-hit');
  }

  source(name: string): Locator {
    return this.page.locator(`[data-testid="source-row"][data-source="${name}"]`);
  }

  /** Drops a file onto the window the way a browser does: dragenter, dragover, drop with a DataTransfer. */
  async drop(name: string, bytes: Uint8Array, type: string): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ({ name, b64, type }) => {
        const bin = atob(b64);
        const data = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) data[i] = bin.charCodeAt(i);
        // Runs in the page; this file is compiled without the DOM library.
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown;
        };
        const dt = new page.DataTransfer();
        dt.items.add(new page.File([data], name, { type }));
        return dt;
      },
      { name, b64: Buffer.from(bytes).toString('base64'), type },
    );
    await this.page.dispatchEvent('main', 'dragenter', { dataTransfer });
    await this.page.dispatchEvent('main', 'dragover', { dataTransfer });
    await expect(this.page.getByTestId('drop-overlay')).toBeVisible();
    await this.page.dispatchEvent('main', 'drop', { dataTransfer });
    await expect(this.page.getByTestId('drop-overlay')).toBeHidden();
  }
}

test('drop a 10-page PDF, watch it come in, and find a sentence from page 7', async ({ host, openApp }) => {
  const fake = await startFakeServer();
  installEmbeddings(fake, { dimensions: 16 });
  try {
    await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: fake.baseURL, model: 'fake-embed', dimensions: 16, apiKey: 'k' } });
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    const kn = new KnowledgePage(app.page);
    await expect(app.page.getByTestId('knowledge-empty')).toBeVisible();

    await kn.drop('handbook.pdf', await makeBookPdf(10), 'application/pdf');
    // A progress bar appears for the file, then goes once the job is done.
    await expect(kn.ingests.filter({ hasText: 'handbook.pdf' })).toBeVisible();
    await expect(kn.ingests).toHaveCount(0, { timeout: 45_000 });

    const row = kn.source('handbook.pdf');
    await expect(row).toBeVisible();
    await expect(row).toContainText('10 pages');
    const chunks = Number(await row.getByTestId('source-chunks').textContent());
    expect(chunks).toBeGreaterThan(1);
    // Every chunk gets its vector (fake embedding server): coverage reaches n/n.
    await expect(row.getByTestId('source-coverage')).toContainText(`${chunks}/${chunks}`, { timeout: 30_000 });

    const sentence = knownSentence(7, 2);
    await kn.search.fill(sentence);
    const top = kn.hits.first();
    await expect(top.getByTestId('knowledge-hit-tag')).toHaveText(/^\[knowledge handbook\.pdf#\d+\]$/);
    await expect(top.getByTestId('knowledge-hit-text')).toContainText('catalogued item 702');
    await app.screenshot('knowledge');
    await expect(app.errorToasts()).toHaveCount(0);
  } finally {
    await fake.close();
  }
});

test('a dropped encrypted PDF shows a readable error and adds nothing', async ({ openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('knowledge');
  const kn = new KnowledgePage(app.page);
  await kn.drop('locked.pdf', makeEncryptedPdf(), 'application/pdf');
  const failed = kn.ingests.filter({ hasText: 'locked.pdf' });
  await expect(failed).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(failed.getByTestId('ingest-error')).toContainText('password-protected');
  await expect(app.errorToasts().filter({ hasText: 'password-protected' })).toBeVisible();
  await expect(app.page.getByTestId('knowledge-empty')).toBeVisible();
});

test('a source can be deleted after a confirmation', async ({ host, openApp }) => {
  await host.call('knowledge.ingest', { persona: 'main', name: 'todo.md', dataBase64: Buffer.from('# Todo\n\nWater the ferns.').toString('base64') });
  // Ingested before the page opens: this test is about deleting, not about live updates.
  await expect.poll(async () => (await host.call('knowledge.listSources', { persona: 'main' })).length, { timeout: 20_000 }).toBe(1);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('knowledge');
  const kn = new KnowledgePage(app.page);
  await expect(kn.source('todo.md')).toBeVisible({ timeout: 20_000 });
  await kn.source('todo.md').getByTestId('source-delete').click();
  const dialog = app.page.getByTestId('delete-source-dialog');
  await expect(dialog).toContainText('1 chunk');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(kn.source('todo.md')).toBeVisible();
  await kn.source('todo.md').getByTestId('source-delete').click();
  await app.page.getByTestId('confirm-delete-source').click();
  await expect(kn.source('todo.md')).toHaveCount(0);
  expect(await host.call('knowledge.listSources', { persona: 'main' })).toEqual([]);
});
