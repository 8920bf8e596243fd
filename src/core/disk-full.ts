import { AppError } from '../shared/errors';

/** errno codes a file write raises when there is no room left (the disk, or the user's quota). */
const NO_SPACE_ERRNO = new Set(['ENOSPC', 'EDQUOT']);

/** Postgres' SQLSTATE for "disk full" (class 53, insufficient resources). */
export const SQLSTATE_DISK_FULL = '53100';

export const DISK_FULL_MESSAGE =
  'The disk holding Hearth’s data is full, so nothing was saved. Free some space and try again; what was stored before is intact.';

/** True for a Node file-system error that means "no space left". */
export function isNoSpaceError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && NO_SPACE_ERRNO.has(code);
}

export function diskFullError(): AppError {
  return new AppError('disk_full', DISK_FULL_MESSAGE);
}
