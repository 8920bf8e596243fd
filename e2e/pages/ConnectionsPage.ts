import type { Locator, Page } from '@playwright/test';

/** Settings → Connections: snippets, AI tools seen with their switch, the call log. */
export class ConnectionsPage {
  readonly view: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('connections-view');
  }

  snippet(which: 'claude' | 'generic' | 'cursor' | 'vscode' | 'http'): Locator {
    return this.page.getByTestId(`mcp-snippet-${which}`);
  }

  client(name: string): Locator {
    return this.page.locator(`[data-testid="mcp-client"][data-client="${name}"]`);
  }

  clientSwitch(name: string): Locator {
    return this.client(name).getByTestId('mcp-client-enabled');
  }

  calls(): Locator {
    return this.page.getByTestId('mcp-call');
  }
}
