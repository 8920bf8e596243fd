import { AppError } from '../../../shared/errors';
import { startWorker } from '../../workers';
import { parseError } from './errors';
import type { DocumentKind, ParsedDocument, ParseMessage } from './types';

export interface ParseOptions {
  kind: DocumentKind;
  /** The name used in messages (the file or source name). */
  name: string;
  onProgress?: (page: number, pages: number) => void;
  signal?: AbortSignal;
}

/** Parses a file in its own worker thread, so the core thread stays responsive. */
export function parseFileInWorker(path: string, options: ParseOptions): Promise<ParsedDocument> {
  return new Promise((resolve, reject) => {
    // A hostile PDF can ask for a lot of memory: cap the worker, not the app.
    const worker = startWorker('./knowledge/parse/worker.ts', 'parse-worker', {
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => finish(() => reject(new AppError('cancelled', `Parsing "${options.name}" was cancelled.`)));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort);

    worker.on('message', (m: ParseMessage) => {
      if (m.type === 'progress') options.onProgress?.(m.page, m.pages);
      else if (m.type === 'done') finish(() => resolve(m.doc));
      else {
        const failure = m.failure;
        const err = failure === 'internal' ? new AppError('ingest_error', m.message) : parseError(failure, m.message);
        finish(() => reject(err));
      }
    });
    worker.on('error', (e) => finish(() => reject(new AppError('ingest_error', `The parser crashed on "${options.name}": ${e.message}`))));
    worker.on('exit', (code) => finish(() => reject(new AppError('ingest_error', `The parser stopped on "${options.name}" (exit code ${code}).`))));
    worker.postMessage({ path, kind: options.kind, name: options.name });
  });
}
