import { open } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { detectKind } from './detect';
import { parseError } from './errors';
import type { DocumentKind } from './types';

export interface FileFacts {
  kind: DocumentKind;
  bytes: number;
}

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** Checks a file before parsing: it exists, fits the size limit, and is a type we read. */
export async function inspectFile(path: string, name: string, maxBytes: number): Promise<FileFacts> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AppError('not_found', `"${name}" does not exist (or was moved).`, { retryable: false });
    if (code === 'EISDIR') throw parseError('unsupported_type', `"${name}" is a folder; drop the files inside it instead.`);
    throw new AppError('ingest_error', `"${name}" cannot be opened (${code ?? (e as Error).message}).`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw parseError('unsupported_type', `"${name}" is not a regular file.`);
    if (stat.size > maxBytes) {
      throw parseError('too_large', `"${name}" is ${mb(stat.size)}, above the ${mb(maxBytes)} limit (Settings → maximum file size).`);
    }
    const head = new Uint8Array(Math.min(1024, stat.size));
    await handle.read(head, 0, head.length, 0);
    return { kind: detectKind(name, head, stat.size), bytes: stat.size };
  } finally {
    await handle.close();
  }
}
