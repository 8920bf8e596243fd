import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../src/core/testing/fake-openai/server';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

test('a failing embedding job shows its error; retry-now and backfill bring the backlog to zero', async ({ host, openApp }) => {
  const broken = await startFakeServer();
  installEmbeddings(broken).failNext(1000, 503);
  const healthy = await startFakeServer();
  const embeddings = installEmbeddings(healthy, { dimensions: 16 });
  try {
    await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: broken.baseURL, model: 'fake-embed', dimensions: 16, apiKey: 'k' } });
    await host.call('memories.write', { persona: 'main', content: 'Renewed the passport at the town hall' });

    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('jobs');
    const failed = app.jobs.queue('embeddings').locator('[data-testid="job-row"][data-state="retryable"]');
    await expect(failed).toHaveCount(1, { timeout: 20_000 });
    await expect(failed.getByTestId('job-error')).toContainText('503');
    await expect(app.jobs.backlog).toHaveText('1');
    await app.screenshot('jobs');

    // Point the provider at a working server; retry at once rather than waiting for the backoff.
    await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: healthy.baseURL, model: 'fake-embed', dimensions: 16, apiKey: 'k' } });
    const retry = failed.getByTestId('job-retry');
    if (await retry.isVisible()) await retry.click();
    await expect(app.jobs.backlog).toHaveText('0', { timeout: 20_000 });
    expect(embeddings.requests.length).toBeGreaterThan(0);

    // Another model (another size): the vector is stale until backfill re-embeds it.
    embeddings.dimensions = 8;
    await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: healthy.baseURL, model: 'fake-embed', dimensions: 8, apiKey: 'k' } });
    await app.page.reload();
    await app.ready();
    await expect(app.jobs.backlog).toHaveText('1');
    await app.jobs.backfill.click();
    await expect(app.toasts.filter({ hasText: 'Backfill enqueued 1 embedding job' })).toBeVisible();
    await expect(app.jobs.backlog).toHaveText('0', { timeout: 20_000 });

    await app.go('memories');
    await expect(app.memories.row('Renewed the passport').getByTestId('embedding-status')).toHaveAttribute('data-status', 'current');
    await expect(app.errorToasts()).toHaveCount(0);
  } finally {
    await broken.close();
    await healthy.close();
  }
});
