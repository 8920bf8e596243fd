import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { CoreContext } from '../context';

/**
 * Uploaded files (browser host) wait on disk for their ingest job, never as
 * base64 in the jobs table: `<dataDir>/uploads/`, or a temp folder for an
 * in-memory core.
 */
export function uploadsDir(ctx: Pick<CoreContext, 'dataDir'>): string {
  return ctx.dataDir ? join(ctx.dataDir, 'uploads') : join(tmpdir(), 'hearth-uploads');
}

export async function stageUpload(ctx: Pick<CoreContext, 'dataDir'>, name: string, bytes: Uint8Array): Promise<string> {
  const dir = uploadsDir(ctx);
  await mkdir(dir, { recursive: true });
  const ext = extname(name).toLowerCase().replace(/[^.a-z0-9]/g, '').slice(0, 12);
  const path = join(dir, `${randomUUID()}${ext}`);
  await writeFile(path, bytes, { mode: 0o600 });
  return path;
}

export async function removeStaged(path: string): Promise<void> {
  await rm(path, { force: true });
}
