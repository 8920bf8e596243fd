import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// Each test works in a persona of its own on the worker's shared host (e2e/README.md).
test.use({ sharedHost: true });

test('adding, editing and removing dimensions is reflected in the prompt preview', async ({ host, persona, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('userModel');
  await expect(app.page.getByTestId('user-model-empty')).toBeVisible();

  await app.userModel.add('preferences', 'Prefers short answers with code first', 7);
  await expect(app.userModel.preview).toContainText('- [preferences, conf=7] Prefers short answers with code first');
  await app.userModel.add('goals', 'Run a half marathon in under two hours');
  await expect(app.userModel.preview).toContainText('- [goals, conf=5] Run a half marathon in under two hours');

  await app.userModel.edit('preferences', 'Prefers detailed answers with sources', 9);
  await expect(app.userModel.row('preferences').getByTestId('dimension-confidence')).toHaveText('conf 9');
  await expect(app.userModel.preview).toContainText('- [preferences, conf=9] Prefers detailed answers with sources');
  await expect(app.userModel.preview).not.toContainText('code first');
  // The preview is the block the core renders for the prompt, verbatim.
  expect(await app.userModel.preview.innerText()).toBe(await host.call('userModel.block', { persona }));
  await app.screenshot('user-model');

  // Remove can be undone: the dimension comes back as it was.
  await app.userModel.remove('preferences');
  await expect(app.userModel.preview).not.toContainText('detailed answers');
  await app.toasts.filter({ hasText: 'Removed “preferences”' }).getByTestId('toast-action').click();
  await expect(app.userModel.preview).toContainText('- [preferences, conf=9] Prefers detailed answers with sources');

  await app.userModel.remove('goals');
  await expect(app.userModel.preview).not.toContainText('half marathon');

  await app.page.reload();
  await app.ready();
  await expect(app.userModel.rows).toHaveCount(1);
  await expect(app.userModel.row('preferences').getByTestId('dimension-content')).toHaveText('Prefers detailed answers with sources');
});

test('the user model follows the active persona', async ({ host, persona, openApp }) => {
  // A second persona of this test's own, named apart from the other tests' on the shared host.
  const coach = (await host.call('personas.create', { name: `Coach of ${persona}` })).id;
  await host.call('userModel.upsert', { persona: coach, dimension: 'baseline', content: 'Trains five days a week', confidence: 6 });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('userModel');
  await expect(app.page.getByTestId('user-model-empty')).toBeVisible();
  await app.personas.switchTo(coach);
  await expect(app.userModel.row('baseline').getByTestId('dimension-content')).toHaveText('Trains five days a week');
  await expect(app.userModel.preview).toContainText('- [baseline, conf=6] Trains five days a week');
});

test('Ctrl+Enter saves a new dimension and Cmd+Enter saves an edit, as the shortcuts sheet says', async ({ host, persona, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('userModel');
  await app.page.getByTestId('dimension-add').click();
  const form = app.userModel.view.getByTestId('dimension-form');
  await form.getByTestId('dimension-name-input').fill('preferences');
  await form.getByTestId('dimension-content-input').fill('Likes tea in the morning');
  await form.getByTestId('dimension-content-input').press('Control+Enter');
  await expect(form).toHaveCount(0);
  await expect(app.userModel.row('preferences').getByTestId('dimension-content')).toHaveText('Likes tea in the morning');

  const row = app.userModel.row('preferences');
  await row.getByTestId('dimension-edit').click();
  await row.getByTestId('dimension-confidence-input').fill('8');
  // From the text area, where a plain Enter is a new line and the browser submits nothing.
  await row.getByTestId('dimension-content-input').fill('Likes green tea');
  await row.getByTestId('dimension-content-input').press('Meta+Enter');
  await expect(row.getByTestId('dimension-form')).toHaveCount(0);
  await expect(row.getByTestId('dimension-content')).toHaveText('Likes green tea');
  await expect(row.getByTestId('dimension-confidence')).toHaveText('conf 8');
  const stored = await host.call('userModel.list', { persona });
  expect(stored).toEqual([expect.objectContaining({ dimension: 'preferences', content: 'Likes green tea', confidence: 8 })]);
});
