import { constants } from 'node:fs';
import { type FileHandle, lstat, open, stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import { parseError } from './errors';

// Opening a FIFO blocks until a writer appears (a request that hangs for ever,
// and one of Node's four file-I/O threads with it); opening a device can have
// side effects. So a path is looked at with lstat/stat first and opened only
// when it names a regular file, non-blocking, and checked again once open in
// case it was swapped in between.

function kindOf(s: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (s.isDirectory()) return 'a folder; drop the files inside it instead';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function notRegular(name: string, what: string): AppError {
  return parseError('unsupported_type', `"${name}" is ${what}. Hearth reads ordinary files only.`);
}

function openFailure(name: string, e: unknown): AppError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new AppError('not_found', `"${name}" does not exist (or was moved).`, { retryable: false });
  return new AppError('ingest_error', `"${name}" cannot be opened (${code ?? (e as Error).message}).`);
}

/** Opens `path` for reading only if it is (or links to) a regular file; `name` is for messages. */
export async function openRegularFile(path: string, name: string): Promise<FileHandle> {
  let before;
  try {
    const link = await lstat(path);
    before = link.isSymbolicLink() ? await stat(path) : link;
  } catch (e) {
    throw openFailure(name, e);
  }
  if (!before.isFile()) throw notRegular(name, kindOf(before));
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    throw openFailure(name, e);
  }
  const now = await handle.stat();
  if (!now.isFile() || now.ino !== before.ino || now.dev !== before.dev) {
    await handle.close();
    throw notRegular(name, now.isFile() ? 'a file that changed while it was being opened' : kindOf(now));
  }
  return handle;
}
