import { expect, type Locator, type Page } from '@playwright/test';

/** The persona switcher in the sidebar and its delete dialog. */
export class PersonasPanel {
  readonly items: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.items = page.getByTestId('persona-item');
    this.dialog = page.getByTestId('delete-persona-dialog');
  }

  item(id: string): Locator {
    return this.page.locator(`[data-testid="persona-item"][data-persona-id="${id}"]`);
  }

  async names(): Promise<string[]> {
    return this.page.getByTestId('persona-name').allTextContents();
  }

  async create(name: string): Promise<void> {
    await this.page.getByTestId('persona-new').click();
    await this.page.getByTestId('persona-name-input').fill(name);
    await this.page.getByTestId('persona-create').click();
    await expect(this.page.getByTestId('persona-name').filter({ hasText: new RegExp(`^${name}$`) })).toBeVisible();
  }

  async switchTo(id: string): Promise<void> {
    await this.item(id).getByTestId('persona-switch').click();
    await expect(this.item(id)).toHaveAttribute('data-active', 'true');
  }

  async rename(id: string, name: string): Promise<void> {
    await this.item(id).hover();
    await this.item(id).getByTestId('persona-rename').click();
    const input = this.page.getByTestId('persona-rename-input');
    await input.fill(name);
    await input.press('Enter');
    await expect(this.item(id).getByTestId('persona-name')).toHaveText(name);
  }

  async openDelete(id: string): Promise<Locator> {
    await this.item(id).hover();
    await this.item(id).getByTestId('persona-delete').click();
    await expect(this.dialog).toBeVisible();
    return this.dialog;
  }

  counts(id: string): Locator {
    return this.item(id).getByTestId('persona-counts');
  }
}
