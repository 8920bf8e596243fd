// Errors as every door sees them. Messages are for people; codes are for code.

/** Every error code a door may receive. Add new codes here, never as bare strings elsewhere. */
export const ERROR_CODES = [
  'invalid_args',
  'not_found',
  'conflict',
  'forbidden',
  'unknown_method',
  'locked',
  'migration_failed',
  'provider_error',
  'provider_unreachable',
  'provider_auth',
  'context_overflow',
  'not_configured',
  'embedding_dimension',
  'ingest_error',
  /** A .hearth file (or another tool's export) that cannot be imported: the message names the line and why. */
  'import_error',
  'too_large',
  'unsupported_type',
  'cancelled',
  'busy',
  /** The disk (or the user's quota) is full: Postgres SQLSTATE 53100, ENOSPC/EDQUOT from a file write. */
  'disk_full',
  /** The data folder or a table in it is damaged: Hearth refuses to start over and names what to restore. */
  'data_damaged',
  /** The database folder is missing or empty while backups lie beside it: restore one, or start empty by choice. */
  'data_missing',
  /** A backup that cannot be restored (truncated, altered, does not open): nothing was changed. */
  'backup_damaged',
  /** The PostgreSQL server of HEARTH_DATABASE_URL cannot be used: unreachable, login refused, no such database. */
  'database_server',
  /** A local-only persona's content would go to a provider that is not on this computer: refused before any request. */
  'local_only',
  'internal',
  // Raised by the renderer's HTTP transport (the browser host refused the token / cannot be reached).
  'unauthorized',
  'host_unreachable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** What every call returns across a door: dispatch never throws. */
/** `notes`: what the core changed in the input to store it (e.g. broken Unicode replaced), for the person to see. */
export type Envelope<T> = { ok: true; data: T; notes?: string[] } | { ok: false; error: AppErrorShape };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  toJSON(): AppErrorShape {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static from(shape: AppErrorShape): AppError {
    return new AppError(shape.code, shape.message, shape.details);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
