import type { Locator, Page } from '@playwright/test';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../src/core/testing/fake-openai/server';
import { makeDocx } from '../src/core/testing/test-docx';
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
    await expect(kn.ingests).toHaveCount(0, { timeout: 60_000 });

    const row = kn.source('handbook.pdf');
    await expect(row).toBeVisible();
    await expect(row).toContainText('10 pages');
    const chunks = Number(await row.getByTestId('source-chunks').textContent());
    expect(chunks).toBeGreaterThan(1);
    // Every chunk gets its vector (fake embedding server): coverage reaches n/n. Each chunk's sentence
    // windows are embedded and written with it, which takes a while on a busy machine.
    await expect(row.getByTestId('source-coverage')).toContainText(`${chunks}/${chunks}`, { timeout: 90_000 });

    const sentence = knownSentence(7, 2);
    await kn.search.fill(sentence);
    const top = kn.hits.first();
    // Named by its file and page (the chunk number means nothing to a reader).
    await expect(top.getByTestId('knowledge-hit-source')).toHaveText('handbook.pdf');
    await expect(top.locator('.knowledge-hit-meta')).not.toContainText('#');
    // Why, in words first; the numbers wait behind "Numbers".
    await expect(top.getByTestId('knowledge-hit-why')).toHaveText(/^matched by words/);
    await expect(top.getByText(/cosine/)).toBeHidden();
    await expect(top.getByTestId('knowledge-hit-text')).toContainText('catalogued item 702');
    // The sentences that matched best are highlighted, with the page they are on.
    await expect(top.getByTestId('knowledge-hit-match')).toContainText('catalogued item 702');
    await expect(top.getByTestId('knowledge-hit-page')).toHaveText('page 7');
    await app.screenshot('knowledge');
    await expect(app.errorToasts()).toHaveCount(0);
  } finally {
    await fake.close();
  }
});

// The rest only look at their own persona's sources: each in a persona of its own on the worker's
// shared host (e2e/README.md). The PDF test above sets the embedding provider, so it keeps a host of its own.
test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('a dropped encrypted PDF or a picture named .txt shows its error once, on its row, and adds nothing', async ({ openApp }) => {
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    const kn = new KnowledgePage(app.page);
    await kn.drop('locked.pdf', makeEncryptedPdf(), 'application/pdf');
    const failed = kn.ingests.filter({ hasText: 'locked.pdf' });
    await expect(failed).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
    await expect(failed.getByTestId('ingest-error')).toContainText('password-protected');
    // Refused at once (a picture named .txt): also said on its row.
    await kn.drop('photo.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'text/plain');
    const refused = kn.ingests.filter({ hasText: 'photo.txt' });
    await expect(refused).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
    await expect(refused.getByTestId('ingest-error')).toContainText('PNG image');
    // Each error is said once, on its file's row: no toast repeats it.
    await expect(app.page.getByText(/password-protected/)).toHaveCount(1);
    await expect(app.page.getByText(/PNG image/)).toHaveCount(1);
    await expect(app.errorToasts()).toHaveCount(0);
    await expect(app.page.getByTestId('knowledge-empty')).toBeVisible();
  });

  test('a dropped Word document is read and found, with no page in its citation; a damaged one says so on its row', async ({ openApp }) => {
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    await expect(app.page.getByTestId('knowledge-empty')).toContainText('Word (.docx)');
    const kn = new KnowledgePage(app.page);
    const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    await kn.drop('allotment.docx', makeDocx(['# Allotment plan', 'The runner beans climb the north fence.']), DOCX);
    const row = kn.source('allotment.docx');
    await expect(row).toBeVisible({ timeout: 60_000 });
    await expect(row).toContainText('docx');
    await expect(row).not.toContainText('page');
    await kn.search.fill('runner beans north fence');
    await expect(kn.hits.first().getByTestId('knowledge-hit-source')).toHaveText('allotment.docx', { timeout: 60_000 });
    await expect(kn.hits.first().getByTestId('knowledge-hit-text')).toContainText('runner beans climb the north fence');
    await expect(kn.hits.first().getByTestId('knowledge-hit-page')).toHaveCount(0);

    const broken = makeDocx(['Never read.']);
    await kn.drop('minutes.docx', broken.subarray(0, broken.length >> 1), DOCX);
    const failed = kn.ingests.filter({ hasText: 'minutes.docx' });
    await expect(failed).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
    await expect(failed.getByTestId('ingest-error')).toHaveText(/^"minutes\.docx" is not a readable Word document/);
    await expect(failed.getByTestId('ingest-error')).not.toContainText('ingest_error');
    await expect(kn.source('minutes.docx')).toHaveCount(0);
    await app.screenshot('knowledge-docx');
    await expect(app.errorToasts()).toHaveCount(0);
  });

  test('a passage from a Markdown file is shown rendered, like chat, with the matching words still highlighted', async ({ host, persona, openApp }) => {
    const md = [
      '# Fern care',
      '',
      'Ferns want shade. Keep the **peat moss** damp but never wet. See [the fern guide](https://example.org/ferns).',
      '',
      '- Mist them weekly',
      '- Repot in spring',
      '',
      'Use `rainwater` when you can.',
    ].join('\n');
    await host.call('knowledge.ingest', { persona, name: 'ferns.md', dataBase64: Buffer.from(md).toString('base64') });
    await expect.poll(async () => (await host.call('knowledge.listSources', { persona })).length, { timeout: 60_000 }).toBe(1);
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    const kn = new KnowledgePage(app.page);
    await kn.search.fill('peat moss damp');
    // The question is embedded by the built-in model first: slow on a busy machine.
    await expect(kn.hits.first()).toBeVisible({ timeout: 60_000 });
    const text = kn.hits.first().getByTestId('knowledge-hit-text');
    await expect(text.locator('strong')).toHaveText('peat moss');
    await expect(text.locator('a')).toHaveAttribute('href', 'https://example.org/ferns');
    await expect(text.locator('a')).toHaveAttribute('target', '_blank');
    await expect(text.locator('li')).toHaveText(['Mist them weekly', 'Repot in spring']);
    await expect(text.locator('code')).toHaveText('rainwater');
    await expect(text).not.toContainText('**');
    await expect(text).not.toContainText('](');
    await expect(text).not.toContainText('# Fern');
    // What matched is still marked, through the bold text too: the best sentence when the question got its vector,
    // or each of the question's words when it was answered by words alone (a busy machine: the embedding timed out).
    await expect.poll(async () => (await text.locator('mark').allTextContents()).join(' '), { timeout: 60_000 }).toMatch(/peat[\s\S]*moss/);
    await expect(text.locator('strong mark').first()).toContainText('peat');
    await app.screenshot('knowledge-markdown');
    await expect(app.errorToasts()).toHaveCount(0);
  });

  test('a source can be deleted after a confirmation', async ({ host, persona, openApp }) => {
    await host.call('knowledge.ingest', { persona, name: 'todo.md', dataBase64: Buffer.from('# Todo\n\nWater the ferns.').toString('base64') });
    // Ingested before the page opens: this test is about deleting, not about live updates.
    await expect.poll(async () => (await host.call('knowledge.listSources', { persona })).length, { timeout: 60_000 }).toBe(1);
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    const kn = new KnowledgePage(app.page);
    await expect(kn.source('todo.md')).toBeVisible({ timeout: 60_000 });
    // The app's one date-and-time format, in the page's own locale ("Dec 3, 2026, 8:41 AM" in en-US).
    const [source] = await host.call('knowledge.listSources', { persona });
    const expected = await app.page.evaluate(
      (iso) => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(iso)),
      source!.ingestedAt,
    );
    await expect(kn.source('todo.md').getByTestId('source-ingested')).toHaveText(expected);
    await kn.source('todo.md').getByTestId('source-delete').click();
    const dialog = app.page.getByTestId('delete-source-dialog');
    await expect(dialog).toContainText('1 chunk');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(kn.source('todo.md')).toBeVisible();
    await kn.source('todo.md').getByTestId('source-delete').click();
    await app.page.getByTestId('confirm-delete-source').click();
    await expect(kn.source('todo.md')).toHaveCount(0);
    // One chunk, in the singular.
    await expect(app.toasts.filter({ hasText: 'Deleted "todo.md" (1 chunk); it is in the trash.' })).toBeVisible();
    expect(await host.call('knowledge.listSources', { persona })).toEqual([]);
  });

  // Runs in the page; this file is compiled without the DOM library.
  type Styles = { getComputedStyle(el: unknown): { opacity: string; display: string; color: string } };
  const style = (l: Locator) => l.evaluate((el) => {
    const s = (globalThis as unknown as Styles).getComputedStyle(el);
    return { opacity: s.opacity, display: s.display, color: s.color };
  });
  const opacity = async (l: Locator) => Number((await style(l)).opacity);
  const color = async (l: Locator) => (await style(l)).color;

  test('row actions are readable at rest and light up on hover and on keyboard focus (computed style, not just "visible")', async ({ host, persona, openApp }) => {
    await host.call('knowledge.ingest', { persona, name: 'notes.md', dataBase64: Buffer.from('# Notes\n\nBuy seeds.').toString('base64') });
    await expect.poll(async () => (await host.call('knowledge.listSources', { persona })).length, { timeout: 60_000 }).toBe(1);
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    const kn = new KnowledgePage(app.page);
    const row = kn.source('notes.md');
    await expect(row).toBeVisible({ timeout: 60_000 });
    const del = row.getByTestId('source-delete');
    // At rest: quiet (muted text) but never faded, so they can be read and found.
    await app.page.getByTestId('knowledge-view').locator('h1').hover();
    expect(await opacity(del)).toBe(1);
    const quiet = await color(del);
    await row.hover();
    await expect.poll(() => color(del)).not.toBe(quiet);
    const lit = await color(del);
    await app.page.getByTestId('knowledge-view').locator('h1').hover();
    await expect.poll(() => color(del)).toBe(quiet);
    await row.getByTestId('source-reingest').focus();
    await expect.poll(() => color(del)).toBe(lit);
    expect(await opacity(row.getByTestId('source-reingest'))).toBe(1);
    // The actions cell is a table cell, so the row's borders stay whole.
    expect((await style(row.locator('.row-actions'))).display).toBe('table-cell');
  });

  test('dropping a file whose name is taken asks: Replace or Keep both', async ({ host, persona, openApp }) => {
    await host.call('knowledge.ingest', { persona, name: 'plan.md', dataBase64: Buffer.from('# Plan\n\nThe original ten-page plan.').toString('base64') });
    await expect.poll(async () => (await host.call('knowledge.listSources', { persona })).length, { timeout: 60_000 }).toBe(1);
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('knowledge');
    const kn = new KnowledgePage(app.page);
    await expect(kn.source('plan.md')).toBeVisible({ timeout: 60_000 });
    const chunksOf = async (source: string) =>
      (await host.call('recall', { persona, query: 'plan', kinds: ['knowledge'] })).filter((h) => h.source === source).map((h) => h.content);

    // Cancel: nothing changes.
    await kn.drop('plan.md', Buffer.from('# Plan\n\nA one-line replacement.'), 'text/markdown');
    const dialog = app.page.getByTestId('replace-source-dialog');
    await expect(dialog).toContainText('“plan.md” is already in the knowledge base');
    await dialog.getByTestId('replace-skip').click();
    await expect(dialog).toHaveCount(0);

    // Keep both: the new file comes in under a free name; the original is untouched.
    await kn.drop('plan.md', Buffer.from('# Plan\n\nA second plan, kept beside the first.'), 'text/markdown');
    await dialog.getByTestId('replace-keep-both').click();
    await expect(kn.source('plan (2).md')).toBeVisible({ timeout: 60_000 });
    expect((await chunksOf('plan.md')).join(' ')).toContain('original ten-page plan');

    // Replace: the stored document becomes the new file.
    await kn.drop('plan.md', Buffer.from('# Plan\n\nA one-line replacement.'), 'text/markdown');
    await dialog.getByTestId('replace-confirm').click();
    await expect.poll(async () => (await chunksOf('plan.md')).join(' '), { timeout: 60_000 }).toContain('one-line replacement');
    expect((await host.call('knowledge.listSources', { persona })).map((s) => s.source).sort()).toEqual(['plan (2).md', 'plan.md']);
  });
});
