import { basename } from 'node:path';
import { AppError } from '../../shared/errors';

export const MAX_SOURCE_CHARS = 200;

/** A source name from a file name or a user/model-given name: no folders, no control characters. */
export function sourceName(raw: string): string {
  const name = basename(raw.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, MAX_SOURCE_CHARS);
  if (!name || name === '.' || name === '..') throw new AppError('invalid_args', `"${raw.slice(0, 80)}" is not a usable source name.`);
  return name;
}
