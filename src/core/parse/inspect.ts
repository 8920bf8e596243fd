import { detectKind } from './detect';
import { parseError } from './errors';
import { openRegularFile } from './regular-file';
import type { DocumentKind } from './types';

export interface FileFacts {
  kind: DocumentKind;
  bytes: number;
}

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** Checks a file before parsing: a regular file that exists, fits the size limit, and is a type we read. */
export async function inspectFile(path: string, name: string, maxBytes: number): Promise<FileFacts> {
  const handle = await openRegularFile(path, name);
  try {
    const stat = await handle.stat();
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
