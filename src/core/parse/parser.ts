import type { Worker } from 'node:worker_threads';
import { AppError } from '../../shared/errors';
import { startWorker } from '../workers';
import { parseError } from './errors';
import type { ParsedDocument, ParseMessage, ParseOptions } from './types';

export interface ParserOptions {
  /** How long an idle worker is kept for the next file before it is ended to give its memory back. */
  idleMs: number;
  /** The worker's heap cap: a hostile PDF can ask for a lot of memory; it crashes the worker, not the app. */
  maxHeapMb: number;
}

export const DEFAULT_PARSER_OPTIONS: ParserOptions = { idleMs: 3 * 60_000, maxHeapMb: 2048 };

/**
 * Parses files in a worker thread, so the core thread stays responsive. The
 * worker (thread start + pdfjs load, the bulk of a small file's parse time) is
 * kept for the next file and ended after `idleMs` without work, on close, and
 * after any failure: a crash or a file that failed gets the next file a fresh one.
 * Files are parsed one at a time, in call order.
 */
export class DocumentParser {
  private worker: Worker | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private active: ((e: AppError) => void) | null = null;
  private nextId = 1;
  private closed = false;

  private readonly options: ParserOptions;

  constructor(options: Partial<ParserOptions> = {}) {
    this.options = { ...DEFAULT_PARSER_OPTIONS, ...options };
  }

  /** True while a worker thread is alive (busy or kept idle). */
  get hasWorker(): boolean {
    return this.worker !== null;
  }

  parse(path: string, options: ParseOptions): Promise<ParsedDocument> {
    const run = this.tail.then(() => this.run(path, options));
    // The chain only orders the calls; each caller gets its own outcome from `run`.
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private run(path: string, options: ParseOptions): Promise<ParsedDocument> {
    if (this.closed) return Promise.reject(new AppError('cancelled', `Parsing "${options.name}" was cancelled: shutting down.`));
    const cancelled = () => new AppError('cancelled', `Parsing "${options.name}" was cancelled.`);
    if (options.signal?.aborted) return Promise.reject(cancelled());
    const worker = this.acquire();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let settled = false;
      // keep: the worker finished cleanly and may serve the next file.
      const finish = (keep: boolean, fn: () => void) => {
        if (settled) return;
        settled = true;
        this.active = null;
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        options.signal?.removeEventListener('abort', onAbort);
        if (keep) this.release(worker);
        else this.retire(worker);
        fn();
      };
      const onMessage = (m: ParseMessage) => {
        if (m.id !== id) return;
        if (m.type === 'progress') options.onProgress?.(m.page, m.pages);
        else if (m.type === 'done') finish(true, () => resolve(m.doc));
        else {
          const err = m.failure === 'internal' ? new AppError('ingest_error', m.message) : parseError(m.failure, m.message);
          finish(false, () => reject(err));
        }
      };
      const onError = (e: Error) =>
        finish(false, () => reject(new AppError('ingest_error', `The parser crashed on "${options.name}": ${e.message}`)));
      const onExit = (code: number) =>
        finish(false, () => reject(new AppError('ingest_error', `The parser stopped on "${options.name}" (exit code ${code}).`)));
      // pdfjs cannot be interrupted mid-file: cancelling ends the worker.
      const onAbort = () => finish(false, () => reject(cancelled()));
      this.active = (e) => finish(false, () => reject(e));
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      options.signal?.addEventListener('abort', onAbort);
      worker.postMessage({ id, path, kind: options.kind, name: options.name });
    });
  }

  private acquire(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) {
      this.worker.ref();
      return this.worker;
    }
    const worker = startWorker('parse-worker', {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    // Errors during a parse reach that parse's listeners; whatever ends the thread, the next file gets a new one.
    const forget = () => {
      if (this.worker === worker) this.worker = null;
    };
    worker.on('error', forget).on('exit', forget);
    this.worker = worker;
    return worker;
  }

  /** Keeps the worker for the next file, without holding the process open, until the idle timeout. */
  private release(worker: Worker): void {
    if (this.worker !== worker || this.closed) return this.retire(worker);
    worker.unref();
    this.idleTimer = setTimeout(() => this.retire(worker), this.options.idleMs);
    this.idleTimer.unref();
  }

  private retire(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    void worker.terminate();
  }

  /** Ends the worker; a parse in progress fails as cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    this.active?.(new AppError('cancelled', 'Parsing was cancelled: shutting down.'));
    await worker?.terminate();
  }
}
