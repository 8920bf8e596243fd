import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';

/** The files a watch keeps ingested: what Hearth reads (src/core/parse/detect.ts), by extension. */
const DOCUMENT_EXTENSIONS = new Set(['.pdf', '.docx', '.md', '.markdown', '.mdown', '.txt', '.text']);

/** A path inside the watched folder, '/'-separated, or null for the folder itself or anything outside. */
export function insidePath(folder: string, abs: string): string | null {
  const rel = relative(folder, abs);
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`)) return null;
  return rel.split(sep).join('/');
}

/** Hidden files and anything in a hidden folder (".git", ".obsidian", ".trash") are not the person's documents. */
export function isHidden(rel: string): boolean {
  return rel.split('/').some((part) => part.startsWith('.'));
}

export function isDocument(rel: string): boolean {
  return !isHidden(rel) && DOCUMENT_EXTENSIONS.has(extname(rel).toLowerCase());
}

/**
 * Every document file under `folder`, recursively, as inside-paths. Hidden
 * folders are not entered and symbolic links not followed (a link may lead out
 * of the folder the person chose).
 */
export async function listDocuments(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        // A subfolder that vanished or cannot be read is skipped, not the whole folder.
        await walk(abs).catch(() => undefined);
      } else if (e.isFile()) {
        const rel = insidePath(folder, abs);
        if (rel && isDocument(rel)) found.push(rel);
      }
    }
  };
  await walk(folder);
  return found.sort();
}

/** A regular file's sha256 (hex), or null when it is gone or not a regular file. */
export async function hashFile(abs: string): Promise<string | null> {
  try {
    if (!(await lstat(abs)).isFile()) return null;
  } catch {
    return null;
  }
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(abs)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', () => resolve(null))
      .on('end', () => resolve(hash.digest('hex')));
  });
}
