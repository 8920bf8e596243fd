import { ERROR_CODES, type ErrorCode, isAppError } from '../../shared/errors';

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
}

/** Any thrown value as the code + message a toast shows. */
export function errorInfo(e: unknown): ErrorInfo {
  if (isAppError(e)) return { code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'internal', message: e.message };
  return { code: 'internal', message: String(e) };
}

// The core records a job's failure as "code: message" (for tools and logs); a person reads the message.
const CODE_PREFIX = new RegExp(`^(?:${ERROR_CODES.join('|')}): `);

/** A recorded failure without its leading error code ("ingest_error: …" → "…"). */
export const readableError = (error: string): string => error.replace(CODE_PREFIX, '');
