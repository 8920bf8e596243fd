import { expect, type Locator, type Page } from '@playwright/test';

export class UserModelPage {
  readonly view: Locator;
  readonly rows: Locator;
  readonly preview: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('user-model-view');
    this.rows = page.getByTestId('dimension-row');
    this.preview = page.getByTestId('user-model-preview');
  }

  row(dimension: string): Locator {
    return this.page.locator(`[data-testid="dimension-row"][data-dimension="${dimension}"]`);
  }

  async add(dimension: string, content: string, confidence?: number): Promise<void> {
    await this.page.getByTestId('dimension-add').click();
    const form = this.view.getByTestId('dimension-form');
    await form.getByTestId('dimension-name-input').fill(dimension);
    await form.getByTestId('dimension-content-input').fill(content);
    if (confidence !== undefined) await form.getByTestId('dimension-confidence-input').fill(String(confidence));
    await form.getByTestId('dimension-save').click();
    await expect(this.row(dimension).getByTestId('dimension-content')).toHaveText(content);
  }

  async edit(dimension: string, content: string, confidence?: number): Promise<void> {
    const row = this.row(dimension);
    await row.getByTestId('dimension-edit').click();
    await row.getByTestId('dimension-content-input').fill(content);
    if (confidence !== undefined) await row.getByTestId('dimension-confidence-input').fill(String(confidence));
    await row.getByTestId('dimension-save').click();
    await expect(row.getByTestId('dimension-content')).toHaveText(content);
  }

  async remove(dimension: string): Promise<void> {
    await this.row(dimension).getByTestId('dimension-remove').click();
    await expect(this.row(dimension)).toHaveCount(0);
  }
}
