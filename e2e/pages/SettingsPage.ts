import { expect, type Locator, type Page } from '@playwright/test';

export class SettingsPage {
  readonly view: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('settings-view');
  }

  field(id: 'chat-base-url' | 'chat-model' | 'review-every' | 'context-budget' | 'workspace-dir' | 'embeddings-base-url' | 'embeddings-model' | 'embeddings-dimensions'): Locator {
    return this.page.getByTestId(id);
  }

  keyInput(which: 'chat' | 'embeddings'): Locator {
    return this.page.getByTestId(`${which}-key-input`);
  }

  keyStatus(which: 'chat' | 'embeddings'): Locator {
    return this.page.getByTestId(`${which}-key-status`);
  }

  /** The notice that saving will clear a stored key (its server changed). */
  keyCleared(which: 'chat' | 'embeddings'): Locator {
    return this.page.getByTestId(`${which}-key-cleared`);
  }

  clearKey(which: 'chat' | 'embeddings'): Locator {
    return this.page.getByTestId(`${which}-key-clear`);
  }

  provider(p: 'local' | 'openai' | 'compatible'): Locator {
    return this.page.getByTestId(`embeddings-provider-${p}`);
  }

  section(id: 'chat' | 'embeddings' | 'memory'): Locator {
    return this.page.getByTestId(`settings-section-${id}`);
  }

  saveButton(section: 'chat' | 'embeddings' | 'memory'): Locator {
    return this.page.getByTestId(`settings-save-${section}`);
  }

  /** Saves one section and waits until it has nothing left unsaved. */
  async save(section: 'chat' | 'embeddings' | 'memory'): Promise<void> {
    await this.saveButton(section).click();
    await expect(this.saveButton(section)).toBeDisabled();
  }

  fieldError(id: string): Locator {
    return this.page.getByTestId(`${id}-error`);
  }
}
