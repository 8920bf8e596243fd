import { parseError } from './errors';
import type { ParsedDocument } from './types';

/** Reads Markdown or plain text, which must be UTF-8 (a byte-order mark is fine). */
export function parseText(bytes: Uint8Array, kind: 'markdown' | 'text', name: string): ParsedDocument {
  let text: string;
  try {
    // fatal: invalid bytes throw instead of turning into U+FFFD; the BOM is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw parseError(
      'not_utf8',
      `"${name}" is not valid UTF-8 text. Save it as UTF-8 (most editors offer this under "Save as" / "Encoding") and try again.`,
    );
  }
  if (text.includes('\u0000')) {
    throw parseError('unsupported_type', `"${name}" contains binary data (NUL bytes); it is not a text file.`);
  }
  if (!text.trim()) throw parseError('empty', `"${name}" contains only whitespace: there is nothing to ingest.`);
  return { kind, pages: null, segments: [{ text }] };
}
