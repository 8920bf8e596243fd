import { AppError, type ErrorCode } from '../../shared/errors';
import type { ParseFailure } from './types';

const CODES: Record<ParseFailure, ErrorCode> = {
  too_large: 'too_large',
  unsupported_type: 'unsupported_type',
  empty: 'ingest_error',
  not_utf8: 'ingest_error',
  encrypted: 'ingest_error',
  corrupt: 'ingest_error',
  no_text: 'ingest_error',
};

/**
 * A file that cannot be ingested as it is. `details.retryable: false` tells
 * the job runner to discard the job at once instead of retrying it.
 */
export function parseError(failure: ParseFailure, message: string): AppError {
  return new AppError(CODES[failure], message, { failure, retryable: false });
}
