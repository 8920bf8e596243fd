import type { AppErrorShape } from './api';

/** Error codes every door understands. Messages are for people; codes are for code. */
export type ErrorCode =
  | 'invalid_args'
  | 'not_found'
  | 'conflict'
  | 'forbidden'
  | 'unknown_method'
  | 'not_implemented'
  | 'locked'
  | 'migration_failed'
  | 'provider_error'
  | 'provider_unreachable'
  | 'provider_auth'
  | 'context_overflow'
  | 'not_configured'
  | 'embedding_dimension'
  | 'ingest_error'
  | 'too_large'
  | 'unsupported_type'
  | 'cancelled'
  | 'busy'
  /** The disk (or the user's quota) is full: Postgres SQLSTATE 53100, ENOSPC/EDQUOT from a file write. */
  | 'disk_full'
  | 'internal';

export class AppError extends Error {
  readonly code: ErrorCode | string;
  readonly details?: unknown;

  constructor(code: ErrorCode | string, message: string, details?: unknown) {
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
