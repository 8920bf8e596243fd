import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// A person who picked the wrong (or a huge) .hearth file can stop its import:
// Cancel beside the progress, and nothing of the file is left (docs/export.md).
test.use({ sharedHost: true });

/** A .hearth file of `n` memories, made here (no vectors: they would only be re-embedded). */
function hearth(n: number): Buffer {
  const t = '2025-03-03T10:00:00.000000Z';
  const lines = [
    JSON.stringify({ format: 'hearth-persona', version: 1, appVersion: '0.1.0', exportedAt: t, embeddingModel: 'none' }),
    JSON.stringify({ type: 'persona', id: 'too-big', name: 'Too Big', createdAt: t }),
    ...Array.from({ length: n }, (_, i) =>
      JSON.stringify({
        type: 'memory', id: randomUUID(), category: null, content: `Archived note number ${i} about the long winter`, importance: 5, day: '2025-03-03',
        origin: 'manual', conversationId: null, insertedAt: t, updatedAt: t, embedding: null, embeddingModel: null, embeddingError: null,
      }),
    ),
    JSON.stringify({ type: 'end', counts: { persona: 1, memory: n } }),
  ];
  return gzipSync(lines.join('\n') + '\n');
}

test('Cancel stops an import and nothing of the file appears', async ({ host, openApp }) => {
  test.setTimeout(120_000);
  const before = (await host.call('personas.list', {})).map((p) => p.id);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.page.getByTestId('persona-import-input').setInputFiles({ name: 'too-big.hearth', mimeType: 'application/gzip', buffer: hearth(20_000) });
  const progress = app.page.getByTestId('persona-import-progress');
  await expect(progress).toContainText('Importing too-big.hearth');
  await app.page.getByTestId('persona-import-cancel').click();
  await expect(app.toasts.filter({ hasText: 'Import of “too-big.hearth” cancelled: nothing was imported.' })).toBeVisible({ timeout: 60_000 });
  await expect(progress).toHaveCount(0);
  await expect(app.personas.item('too-big')).toHaveCount(0);
  // Nothing hidden either: the persona list of the host (which counts hidden ones as not there) and its rows.
  expect((await host.call('personas.list', {})).map((p) => p.id).filter((id) => !before.includes(id) && id.startsWith('too-big'))).toEqual([]);
});
