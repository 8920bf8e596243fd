import { expect, type Locator, type Page } from '@playwright/test';
import { JobsPage } from './JobsPage';
import { MemoriesPage } from './MemoriesPage';
import { PersonasPanel } from './PersonasPanel';
import { SettingsPage } from './SettingsPage';
import { UserModelPage } from './UserModelPage';

export type ViewName = 'chat' | 'memories' | 'userModel' | 'knowledge' | 'activity' | 'trash' | 'jobs' | 'settings';

/** The whole window: sidebar, views, toasts. */
export class AppPage {
  readonly personas: PersonasPanel;
  readonly memories: MemoriesPage;
  readonly userModel: UserModelPage;
  readonly settings: SettingsPage;
  readonly jobs: JobsPage;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.personas = new PersonasPanel(page);
    this.memories = new MemoriesPage(page);
    this.userModel = new UserModelPage(page);
    this.settings = new SettingsPage(page);
    this.jobs = new JobsPage(page);
    this.toasts = page.getByTestId('toast');
  }

  /** Waits until the personas are loaded and the first view is on screen. */
  async ready(): Promise<void> {
    await expect(this.page.getByTestId('persona-item').first()).toBeVisible();
  }

  async go(view: ViewName): Promise<void> {
    // On a narrow window the views are in the drawer behind the menu button.
    if (await this.page.getByTestId('menu-button').isVisible()) await this.openMenu();
    await this.page.getByTestId(`nav-${view}`).click();
    await expect(this.page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }

  /** Opens the sidebar drawer of a narrow window. */
  async openMenu(): Promise<void> {
    const button = this.page.getByTestId('menu-button');
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await expect(this.page.getByTestId('sidebar')).toBeInViewport();
  }

  activePersona(): Promise<string | null> {
    return this.page.getByTestId('app').getAttribute('data-active-persona');
  }

  errorToasts(): Locator {
    return this.page.locator('[data-testid="toast"][data-kind="error"]');
  }

  /** Saves a full-window screenshot for the run's artifacts (e2e-artifacts/screenshots/<name>.png). */
  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `e2e-artifacts/screenshots/${name}.png` });
  }
}
