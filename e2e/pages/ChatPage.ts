import { expect, type Locator, type Page } from '@playwright/test';

/** The chat view: transcript, composer, prompt panel. */
export class ChatPage {
  readonly input: Locator;
  readonly messages: Locator;
  readonly assistant: Locator;
  readonly chips: Locator;
  readonly stop: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId('chat-input');
    this.messages = page.getByTestId('chat-message');
    this.assistant = page.locator('[data-testid="chat-message"][data-role="assistant"]');
    this.chips = page.getByTestId('memory-chip');
    this.stop = page.getByTestId('chat-stop');
  }

  /**
   * Types a message and presses Enter (the composer's send key), once the reply before has finished, as a
   * person would: while one streams, Enter sends nothing and the draft waits (the reply's text can show
   * before its turn ends).
   */
  async send(text: string): Promise<void> {
    await this.waitIdle();
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  async waitIdle(): Promise<void> {
    await expect(this.page.getByTestId('chat-send')).toBeVisible();
  }

  async openPrompt(): Promise<Locator> {
    await this.page.getByTestId('prompt-toggle').click();
    const panel = this.page.getByTestId('prompt-panel');
    await expect(panel).toBeVisible();
    return panel;
  }
}
