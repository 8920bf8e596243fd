// Reads a .hearth file as lines: gunzip, strict UTF-8, bounded line length.
// Errors name what is wrong with the file rather than the library's words.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { AppError } from '../../shared/errors';

/** No record is near this long (a 1536-d vector is ~8 kB); a longer "line" means a damaged file. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export function importError(message: string): AppError {
  return new AppError('import_error', message);
}

function gzipMessage(e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(String((e as Error).message))) {
    return 'The file is cut short (its compressed data ends early): it was not copied or downloaded completely. Nothing was imported.';
  }
  if (code === 'Z_DATA_ERROR' && /header/i.test(String((e as Error).message))) {
    return 'This is not a Hearth export: a .hearth file is gzip-compressed and this one is not. Nothing was imported.';
  }
  return `The file is damaged (its compressed data does not check out: ${(e as Error).message}). Nothing was imported.`;
}

/** Yields [lineNumber, text] for each line of the gzipped file (1-based; the last line may lack its newline). */
export async function* gzipLines(path: string): AsyncGenerator<[number, string]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const input = createReadStream(path).pipe(createGunzip());
  let carry = '';
  let n = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = carry + decoder.decode(chunk, { stream: true });
      } catch {
        throw importError(`Line ${n + 1} is not valid UTF-8 text: the file is damaged. Nothing was imported.`);
      }
      let start = 0;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
        yield [++n, text.slice(start, i)];
        start = i + 1;
      }
      carry = text.slice(start);
      if (carry.length > MAX_LINE_BYTES) throw importError(`Line ${n + 1} is longer than any record can be: the file is damaged. Nothing was imported.`);
    }
    carry += decoder.decode();
  } catch (e) {
    if (e instanceof AppError) throw e;
    if ((e as { code?: string }).code === 'ENOENT') throw new AppError('not_found', 'The file to import is not there any more.');
    if ((e as { errno?: number }).errno !== undefined && String((e as { code?: string }).code).startsWith('Z_')) throw importError(gzipMessage(e));
    if (e instanceof TypeError) throw importError(`Line ${n + 1} is not valid UTF-8 text: the file is damaged. Nothing was imported.`);
    throw e;
  } finally {
    input.destroy();
  }
  if (carry) yield [++n, carry];
}
