// Reads a .hearth file as lines: gunzip, strict UTF-8, bounded line length and
// bounded total size, checked while inflating, so a hostile file is refused at
// the line where it goes wrong rather than after it has been unpacked whole.
// Errors name what is wrong with the file rather than the library's words.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { AppError } from '../../shared/errors';

/**
 * The longest record Hearth writes is an assistant message whose tool call
 * carries a document for knowledge_ingest: at most 2.1 M characters
 * (MAX_TOOL_ARGS_CHARS in src/core/chat/tools/args.ts), up to 3 bytes each in
 * UTF-8 plus JSON escaping, under 8 MB. Twice that is the bound; a longer
 * "line" is a damaged or hostile file (docs/export.md, "Limits").
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/**
 * A .hearth file is mostly base64 vectors and text, which gzip shrinks 1.3–4×;
 * it may inflate to 32× its size, and never past 64 MiB for a small file. A
 * gzip bomb (1 MB that inflates to 1 GiB) is stopped once it passes that.
 */
export const INFLATE_RATIO = 32;
export const MIN_INFLATE_BYTES = 64 * 1024 * 1024;

export interface LineLimits {
  maxLineBytes?: number;
  /** Total decompressed bytes; by default from the file's size (INFLATE_RATIO, MIN_INFLATE_BYTES). */
  maxInflatedBytes?: number;
  /** Aborting stops the reading at the next chunk or line with `cancelled`. */
  signal?: AbortSignal;
}

export function importError(message: string): AppError {
  return new AppError('import_error', message);
}

export function importCancelled(): AppError {
  return new AppError('cancelled', 'The import was cancelled. Nothing was imported.');
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

const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;

/**
 * Yields [lineNumber, text, bytesRead] for each line of the gzipped file
 * (1-based; the last line may lack its newline; bytesRead counts the
 * compressed file, for progress). A line is decoded (strict UTF-8) only once
 * it is whole; the bytes of an unfinished line are kept as chunks, never
 * joined until its newline comes, so a long line costs its length once.
 */
export async function* gzipLines(path: string, limits: LineLimits = {}): AsyncGenerator<[number, string, number]> {
  const { signal } = limits;
  const maxLine = limits.maxLineBytes ?? MAX_LINE_BYTES;
  let maxInflated = limits.maxInflatedBytes;
  if (maxInflated === undefined) {
    const size = await stat(path).then((s) => s.size, () => 0);
    maxInflated = Math.max(MIN_INFLATE_BYTES, size * INFLATE_RATIO);
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const file = createReadStream(path);
  const input = file.pipe(createGunzip());
  // A read error (the file vanished) reaches the gunzip stream too.
  file.on('error', (e) => input.destroy(e));
  let parts: Buffer[] = [];
  let partBytes = 0;
  let inflated = 0;
  let n = 0;
  const decode = (bytes: Buffer): string => {
    try {
      return decoder.decode(bytes);
    } catch {
      throw importError(`Line ${n} is not valid UTF-8 text: the file is damaged. Nothing was imported.`);
    }
  };
  const tooLong = () =>
    importError(`Line ${n + 1} is longer than any record can be (over ${mib(maxLine)}): the file is damaged. Nothing was imported.`);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (signal?.aborted) throw importCancelled();
      inflated += chunk.length;
      if (inflated > maxInflated) {
        throw importError(
          `The file unpacks to more than ${mib(maxInflated)}, far more than a Hearth export of its size holds (line ${n + 1} was being read): it is damaged or not an export. Nothing was imported.`,
        );
      }
      let start = 0;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
        if (partBytes + i - start > maxLine) throw tooLong();
        const piece = chunk.subarray(start, i);
        const bytes = parts.length ? Buffer.concat([...parts, piece]) : piece;
        parts = [];
        partBytes = 0;
        n++;
        yield [n, decode(bytes), file.bytesRead];
        if (signal?.aborted) throw importCancelled();
        start = i + 1;
      }
      if (start < chunk.length) {
        partBytes += chunk.length - start;
        if (partBytes > maxLine) throw tooLong();
        parts.push(chunk.subarray(start));
      }
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    if ((e as { code?: string }).code === 'ENOENT') throw new AppError('not_found', 'The file to import is not there any more.');
    if ((e as { errno?: number }).errno !== undefined && String((e as { code?: string }).code).startsWith('Z_')) throw importError(gzipMessage(e));
    throw e;
  } finally {
    input.destroy();
    file.destroy();
  }
  if (partBytes) {
    n++;
    yield [n, decode(Buffer.concat(parts)), file.bytesRead];
  }
}
