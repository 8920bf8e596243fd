import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../src/core/testing/fake-openai/server';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

test('failed embedding jobs show their errors; retry-now and backfill bring the backlog to zero', async ({ host, openApp }) => {
  // Each job makes its six attempts before it is discarded: slow on a busy machine.
  test.setTimeout(240_000);
  const server = await startFakeServer();
  installEmbeddings(server, { dimensions: 16 }).failNext(10_000, 503);
  try {
    await host.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16, apiKey: 'k' } });
    await host.call('memories.write', { persona: 'main', content: 'Renewed the passport at the town hall' });
    await host.call('memories.write', { persona: 'main', content: 'Booked the car for its service' });

    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('jobs');
    const queue = app.jobs.queue('embeddings');
    await expect(queue.locator('[data-testid="job-row"][data-state="retryable"]').first()).toBeVisible({ timeout: 60_000 });
    await expect(queue.getByTestId('job-error').first()).toContainText('503');
    await expect(app.jobs.backlog).toHaveText('2');
    await app.screenshot('jobs');

    // A person need not wait out the backoff (2 s, doubling: a minute in all): "Retry now" runs a
    // waiting job at once, as its next attempt. After the last attempt a job is discarded: it stays
    // until someone retries it.
    const waiting = queue.locator('[data-testid="job-row"][data-state="retryable"]');
    const discarded = queue.locator('[data-testid="job-row"][data-state="discarded"]');
    await expect(async () => {
      // A job that is running has no button; a click that finds none is tried again.
      if ((await discarded.count()) < 2) await waiting.first().getByTestId('job-retry').click({ timeout: 1_000 });
      await expect(discarded).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 180_000 });
    await expect(discarded.getByTestId('job-attempts')).toHaveText([/^gave up after \d+$/, /^gave up after \d+$/]);
    await expect(app.jobs.count('discarded')).toHaveText('2');

    // The provider is back (same server, same model).
    installEmbeddings(server, { dimensions: 16 });
    await discarded.first().getByTestId('job-retry').click();
    await expect(app.jobs.backlog).toHaveText('1', { timeout: 60_000 });
    await expect(discarded).toHaveCount(1);

    // The other row has no live job left: backfill queues it again.
    await app.jobs.backfill.click();
    await expect(app.toasts.filter({ hasText: 'Backfill enqueued 1 embedding job' })).toBeVisible();
    await expect(app.jobs.backlog).toHaveText('0', { timeout: 60_000 });

    await app.go('memories');
    for (const content of ['Renewed the passport', 'Booked the car']) {
      await expect(app.memories.row(content).getByTestId('embedding-status')).toHaveAttribute('data-status', 'current');
    }
    await expect(app.errorToasts()).toHaveCount(0);
  } finally {
    await server.close();
  }
});

test('completed jobs fold into one line per queue, and unfold when asked for', async ({ host, openApp }) => {
  for (const content of ['Watered the tomatoes', 'Called the plumber', 'Bought new running shoes']) {
    await host.call('memories.write', { persona: 'main', content });
  }
  // The built-in model embeds them in the background.
  await expect.poll(async () => (await host.call('jobs.list', { state: 'completed', queue: 'embeddings' })).jobs.length, { timeout: 60_000 }).toBe(3);

  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('jobs');
  const queue = app.jobs.queue('embeddings');
  const done = queue.locator('[data-testid="job-row"][data-state="completed"]');
  await expect(queue.getByTestId('job-completed-toggle')).toHaveText('Show 3 completed embeddings jobs');
  await expect(done).toHaveCount(0);
  await queue.getByTestId('job-completed-toggle').click();
  await expect(done).toHaveCount(3);
  await expect(done.getByTestId('job-attempts')).toHaveText(['first try', 'first try', 'first try']);
  await expect(queue.getByTestId('job-completed-toggle')).toHaveText('Hide 3 completed embeddings jobs');

  // Asking for completed jobs lists them all, unfolded.
  await app.page.getByTestId('jobs-filter-state').selectOption('completed');
  await expect(done).toHaveCount(3);
  await expect(queue.getByTestId('job-completed-fold')).toHaveCount(0);
  await expect(app.errorToasts()).toHaveCount(0);
});

test('"Retry now" on an upload whose file is gone is refused with a reason, and the job keeps its own error', async ({ host, openApp }) => {
  // Not UTF-8: the ingest stops at once ("retrying cannot help") and its uploaded copy is removed.
  const latin1 = Buffer.from('Cr\xeape au sucre, beurre sal\xe9', 'latin1').toString('base64');
  const { jobId } = await host.call('knowledge.ingest', { persona: 'main', name: 'crepes.txt', dataBase64: latin1 });
  await expect.poll(async () => (await host.call('jobs.list', { queue: 'ingest' })).jobs.find((j) => j.id === jobId)?.state, { timeout: 60_000 }).toBe('discarded');

  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('jobs');
  const row = app.jobs.queue('ingest').locator(`[data-testid="job-row"][data-job-id="${jobId}"]`);
  await expect(row.getByTestId('job-error')).toContainText('not valid UTF-8');
  // The message as a person reads it, without the error code the core records in front of it.
  await expect(row.getByTestId('job-error')).not.toHaveText(/^\s*[a-z_]+: /);
  await row.getByTestId('job-retry').click();
  const refused = app.jobs.queue('ingest').getByTestId('job-retry-refused');
  await expect(refused).toContainText('“crepes.txt” is no longer there');
  await expect(refused).toContainText('drop it again');
  // The row is as it was: still discarded, its original error shown, no second try made.
  await expect(row).toHaveAttribute('data-state', 'discarded');
  await expect(row.getByTestId('job-error')).toContainText('not valid UTF-8');
  await expect(row.getByTestId('job-retry')).toHaveCount(0);
  const job = (await host.call('jobs.list', { queue: 'ingest' })).jobs.find((j) => j.id === jobId)!;
  expect(job).toMatchObject({ state: 'discarded', attempt: 1 });
  await expect(app.errorToasts()).toHaveCount(0);
});

test.describe('on the shared host', () => {
  test.use({ sharedHost: true });

  test('each job names what it worked on: the file, the memory’s first words, the document’s parts', async ({ host, persona, openApp }) => {
    await host.call('memories.write', { persona, content: 'Moved to Lyon in March for the new job at the observatory' });
    await host.call('knowledge.ingest', { persona, name: 'seed-list.md', dataBase64: Buffer.from('# Seeds\n\nTomatoes, basil and beans.').toString('base64') });
    // The built-in model embeds the memory and the document's one part in the background.
    await expect
      .poll(async () => (await host.call('jobs.list', { persona, state: 'completed' })).jobs.length, { timeout: 60_000 })
      .toBe(3);

    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('jobs');
    await app.page.getByTestId('jobs-filter-state').selectOption('completed');
    await expect(app.jobs.queue('ingest').getByTestId('job-subject')).toHaveText(['seed-list.md']);
    await expect(app.jobs.queue('embeddings').getByTestId('job-subject')).toHaveText(['seed-list.md (1 part)', '“Moved to Lyon in March for the new…”']);
    await app.screenshot('jobs-subjects');
  });
});
