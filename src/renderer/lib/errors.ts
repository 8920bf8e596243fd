import { type ErrorCode, isAppError } from '../../shared/errors';

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
