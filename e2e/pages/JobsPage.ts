import { type Locator, type Page } from '@playwright/test';

export class JobsPage {
  readonly view: Locator;
  readonly rows: Locator;
  readonly backlog: Locator;
  readonly backfill: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('jobs-view');
    this.rows = page.getByTestId('job-row');
    this.backlog = page.getByTestId('embedding-backlog').locator('.stat-value');
    this.backfill = page.getByTestId('backfill');
  }

  queue(name: string): Locator {
    return this.page.locator(`[data-testid="job-queue"][data-queue="${name}"]`);
  }

  count(state: 'available' | 'running' | 'retryable' | 'discarded'): Locator {
    return this.page.getByTestId(`job-count-${state}`).locator('.stat-value');
  }

  filterState(): Locator {
    return this.page.getByTestId('jobs-filter-state');
  }

  filterScope(): Locator {
    return this.page.getByTestId('jobs-filter-scope');
  }
}
