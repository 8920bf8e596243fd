import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppError } from '../../shared/errors';

/**
 * Each persona's workspace is its own folder `<workspaceDir>/<persona id>`
 * (settings `workspaceDir`): the model may only make Hearth read files there,
 * so one persona cannot reach another's documents, nor anything else on disk.
 */
export function personaWorkspace(workspaceDir: string, persona: string): string {
  return join(resolve(workspaceDir), persona);
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function forbidden(requested: string, why: string): AppError {
  return new AppError('forbidden', `"${requested}" is not allowed: ${why}. Only files inside the persona's workspace folder can be ingested.`);
}

/**
 * Resolves a path the model asked for to the real file it names, refusing
 * `..`, absolute paths elsewhere, and symlinks whose target lies outside.
 */
export async function resolveInWorkspace(workspaceDir: string | null, persona: string, requested: string): Promise<string> {
  if (!workspaceDir) {
    throw new AppError('not_configured', 'No workspace folder is set: choose one in Settings before ingesting files by path.');
  }
  const root = personaWorkspace(workspaceDir, persona);
  if (!requested.trim() || requested.includes('\0')) throw new AppError('invalid_args', 'The path is empty or contains a NUL byte.');
  if (requested.split(/[\\/]+/).includes('..')) throw forbidden(requested, 'it contains ".."');
  const lexical = resolve(root, requested);
  if (isAbsolute(requested) && !inside(root, lexical)) throw forbidden(requested, `it is outside ${root}`);

  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (e) {
    throw new AppError('not_found', `The workspace folder ${root} does not exist (${(e as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AppError('not_found', `"${requested}" does not exist in the workspace folder ${root}.`);
    throw new AppError('ingest_error', `"${requested}" cannot be read (${code ?? (e as Error).message}).`);
  }
  // Checked on the real path: a symlink inside the folder may point anywhere.
  if (!inside(realRoot, real)) throw forbidden(requested, 'it resolves (through a symlink) to a place outside the workspace');
  return real;
}
