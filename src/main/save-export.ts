import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { app, type BrowserWindow, dialog } from 'electron';
import type { Envelope } from '../shared/api';

/**
 * personas.export in the desktop app: the core wrote the file inside the data
 * folder; the user picks where it goes (docs/export.md). Cancelling answers
 * `path: null` and leaves nothing behind.
 */
export async function saveExport(win: BrowserWindow, answer: Envelope<unknown>): Promise<Envelope<unknown>> {
  if (!answer.ok) return answer;
  const { name, bytes, path } = answer.data as { name: string; bytes: number; path: string };
  try {
    const choice = await dialog.showSaveDialog(win, {
      title: 'Export persona',
      defaultPath: join(app.getPath('documents'), name),
      filters: [{ name: 'Hearth persona', extensions: ['hearth'] }],
    });
    if (choice.canceled || !choice.filePath) return { ok: true, data: { name, bytes, path: null } };
    await copyFile(path, choice.filePath);
    return { ok: true, data: { name, bytes, path: choice.filePath } };
  } catch (e) {
    return { ok: false, error: { code: 'internal', message: `The export could not be saved there: ${(e as Error).message}` } };
  } finally {
    await rm(path, { force: true });
  }
}
