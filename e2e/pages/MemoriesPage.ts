import { expect, type Locator, type Page } from '@playwright/test';

export interface MemoryInput {
  content: string;
  category?: string;
  importance?: number;
  day?: string;
}

/** The memory browser: list, editor, search with breakdown, filters. */
export class MemoriesPage {
  readonly view: Locator;
  readonly rows: Locator;
  readonly search: Locator;
  readonly hits: Locator;
  readonly count: Locator;
  /** The content of every memory row on screen, in list order. */
  readonly contentCells: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('memories-view');
    this.rows = page.getByTestId('memory-row');
    this.search = page.getByTestId('memory-search');
    this.hits = page.getByTestId('search-hit');
    this.count = page.getByTestId('memory-count');
    this.contentCells = this.view.getByTestId('memory-content');
  }

  row(content: string | RegExp): Locator {
    return this.rows.filter({ has: this.page.getByTestId('memory-content').filter({ hasText: content }) });
  }

  async contents(): Promise<string[]> {
    return this.page.getByTestId('memory-content').allTextContents();
  }

  private async fillEditor(editor: Locator, m: Partial<MemoryInput>): Promise<void> {
    if (m.content !== undefined) await editor.getByTestId('memory-content-input').fill(m.content);
    if (m.category !== undefined) await editor.getByTestId('memory-category-input').fill(m.category);
    if (m.importance !== undefined) await editor.getByTestId('memory-importance-input').fill(String(m.importance));
    if (m.day !== undefined) await editor.getByTestId('memory-day-input').fill(m.day);
  }

  async create(m: MemoryInput): Promise<void> {
    await this.page.getByTestId('memory-new').click();
    const editor = this.view.getByTestId('memory-editor');
    await this.fillEditor(editor, m);
    await editor.getByTestId('memory-save').click();
    await expect(editor).toBeHidden();
    await expect(this.row(m.content)).toBeVisible();
  }

  async edit(current: string, patch: Partial<MemoryInput>): Promise<void> {
    const row = this.row(current);
    await row.hover();
    await row.getByTestId('memory-edit').click();
    const editor = this.page.locator('[data-testid="memory-row"].editing').getByTestId('memory-editor');
    await this.fillEditor(editor, patch);
    await editor.getByTestId('memory-save').click();
    await expect(editor).toBeHidden();
  }

  async delete(content: string): Promise<void> {
    const row = this.row(content);
    await row.hover();
    await row.getByTestId('memory-delete').click();
    await expect(row).toHaveCount(0);
  }

  async searchFor(query: string): Promise<void> {
    await this.search.fill(query);
    await this.search.press('Enter');
    await expect(this.page.getByTestId('search-results').or(this.page.getByTestId('search-empty'))).toBeVisible();
  }

  async clearSearch(): Promise<void> {
    await this.search.focus();
    await this.search.press('Escape');
    await expect(this.hits).toHaveCount(0);
  }

  hit(content: string | RegExp): Locator {
    return this.hits.filter({ has: this.page.getByTestId('hit-content').filter({ hasText: content }) });
  }

  /** The numbers of one hit's breakdown, as shown. */
  async breakdown(hit: Locator): Promise<Record<'text' | 'cosine' | 'importance' | 'recency' | 'final', string>> {
    // The numbers sit behind the hit's "Numbers" disclosure.
    const numbers = hit.locator('details.why-numbers');
    if ((await numbers.getAttribute('open')) === null) await numbers.locator('summary').click();
    const value = (k: string) => hit.getByTestId(`score-${k}`).locator('dd').innerText();
    return {
      text: await value('text'),
      cosine: await value('cosine'),
      importance: await value('importance'),
      recency: await value('recency'),
      final: await value('final'),
    };
  }

  filter(name: 'category' | 'importance-min' | 'importance-max' | 'day-from' | 'day-to' | 'origin'): Locator {
    return this.page.getByTestId(`filter-${name}`);
  }
}
