import { realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { AppError } from '../../../shared/errors';

/** `target` is `root` or inside it (both already resolved). */
export function within(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export const NO_WATCH_DIRS =
  'This Hearth was started without watch folders, so the page cannot watch a folder. To allow it, start the browser version with ' +
  'HEARTH_WATCH_DIRS set to the folders a watch may lie in (separated like PATH, e.g. HEARTH_WATCH_DIRS=~/Notes:~/Documents), ' +
  'or with --watch-dir <folder> (repeat it for each).';

function outside(requested: string, dirs: readonly string[]): AppError {
  return new AppError(
    'forbidden',
    `"${requested}" is not inside the folders this Hearth was started with (${dirs.join(', ')}): only folders inside those can be watched. ` +
      'The person who starts Hearth chooses them with HEARTH_WATCH_DIRS or --watch-dir.',
  );
}

async function realDirs(dirs: readonly string[]): Promise<string[]> {
  const real = await Promise.all(dirs.map((d) => realpath(d).catch(() => null)));
  return real.filter((d): d is string => d !== null);
}

/**
 * The real path of a folder a page asked to watch. With `allowed` (the browser
 * host's launch folders) it must lie inside one of them: checked on the path as
 * given before the disk is touched, and again on its real path (a symlink
 * inside may point anywhere). null: the door already decided (the desktop app's
 * folder picker).
 */
export async function resolveWatchFolder(requested: string, allowed: readonly string[] | null): Promise<string> {
  if (!isAbsolute(requested) || requested.includes('\0')) throw new AppError('invalid_args', 'The folder must be an absolute path.');
  let roots: string[] | null = null;
  if (allowed) {
    if (!allowed.length) throw new AppError('forbidden', NO_WATCH_DIRS);
    roots = [...new Set([...allowed.map((d) => resolve(d)), ...(await realDirs(allowed))])];
    if (!roots.some((r) => within(r, resolve(requested)))) throw outside(requested, allowed);
  }
  let real: string;
  try {
    real = await realpath(requested);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AppError('not_found', `The folder "${requested}" does not exist.`);
    throw new AppError('forbidden', `The folder "${requested}" cannot be read (${code ?? (e as Error).message}).`);
  }
  if (allowed) {
    const realRoots = await realDirs(allowed);
    if (!realRoots.some((r) => within(r, real))) throw outside(requested, allowed);
  }
  if (!(await stat(real)).isDirectory()) throw new AppError('invalid_args', `"${requested}" is a file, not a folder: choose the folder that holds it.`);
  return real;
}

/** What a watch's files are named after: the folder's own name, made unique among the persona's watches. */
export function watchLabel(folder: string, taken: readonly string[]): string {
  const base = basename(folder).replace(/[\u0000-\u001f\u007f/\\]/g, '').trim() || 'folder';
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base} (${n})`)) return `${base} (${n})`;
}
