import type { Worker } from 'node:worker_threads';
import { AppError } from '../../../shared/errors';
import { startWorker } from '../../workers';
import { checkVectors } from './check';
import { EMBEDDING_DEFAULTS, modelTag } from './config';
import type { LocalEmbedRequest, LocalEmbedResponse } from './local-protocol';
import { nextSubBatch } from './local-sub-batch';
import type { EmbeddingProvider, EmbedOptions } from './types';

interface Waiting {
  texts: string[];
  /** Vectors of texts[0 .. done.length), in order; the caller gets them all or an error. */
  done: Float32Array[];
  urgent: boolean;
  resolve(v: Float32Array[]): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
}

const LOCAL = EMBEDDING_DEFAULTS.local!;

/**
 * The built-in Universal Sentence Encoder lite (512-d, no network, no key),
 * in its own worker thread, started and loaded on first use. One sub-batch is
 * in the worker at a time, and a request stays at the head of the line until
 * all its texts are done, so a recall query (urgent) goes next, between two
 * sub-batches of a big request, instead of waiting for all of it.
 */
export class LocalEmbedder implements EmbeddingProvider {
  readonly model = modelTag(LOCAL);
  readonly dimensions = LOCAL.dimensions;
  // ~87 short texts/s on one thread: a batch stays well under a second, so a query never waits long.
  readonly maxBatch = 16;
  /** How long the first load took (worker start excluded), once known. */
  loadMs: number | null = null;
  private worker: Worker | null = null;
  private loaded = false;
  private waiting: Waiting[] = [];
  private inFlight: { id: number; w: Waiting; count: number } | null = null;
  private nextId = 1;
  private closed = false;

  warm(): boolean {
    return this.loaded;
  }

  embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (this.closed) return Promise.reject(new AppError('cancelled', 'The local embedder is closed.'));
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => this.abandon(w);
      const done = () => signal?.removeEventListener('abort', onAbort);
      const w: Waiting = {
        texts,
        done: [],
        urgent: !!options.urgent,
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
        signal,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (w.urgent) this.waiting.unshift(w);
      else this.waiting.push(w);
      this.pump();
    });
  }

  private abandon(w: Waiting): void {
    this.drop(w);
    // If part of it is in the worker, that answer is simply dropped when it comes.
    w.reject(abortError(w.signal));
  }

  private drop(w: Waiting): void {
    const i = this.waiting.indexOf(w);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker('embed-worker');
    worker.on('message', (res: LocalEmbedResponse) => this.settle(res));
    const fail = (e: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.loaded = false;
      const f = this.inFlight;
      this.inFlight = null;
      if (f) {
        this.drop(f.w);
        f.w.reject(new AppError('provider_error', `The local embedding model stopped: ${e.message}`));
      }
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private pump(): void {
    if (this.inFlight || this.closed) return;
    // The head stays in line until it is complete: an urgent request put in front meanwhile goes next.
    const w = this.waiting[0];
    if (!w) return;
    const id = this.nextId++;
    const from = w.done.length;
    const count = nextSubBatch(w.texts, from);
    this.inFlight = { id, w, count };
    this.ensureWorker().postMessage({ id, texts: w.texts.slice(from, from + count) } satisfies LocalEmbedRequest);
  }

  private settle(res: LocalEmbedResponse): void {
    if (this.inFlight?.id !== res.id) return;
    const { w, count } = this.inFlight;
    this.inFlight = null;
    if (res.ok) {
      this.loaded = true;
      if (res.loadMs !== null) this.loadMs = res.loadMs;
    }
    // Abandoned (cancelled) meanwhile: its answer is dropped.
    if (this.waiting.includes(w)) this.accept(w, count, res);
    this.pump();
  }

  /** Adds a sub-batch's vectors to its request; any failure fails the whole request, nothing partial. */
  private accept(w: Waiting, count: number, res: LocalEmbedResponse): void {
    try {
      if (!res.ok) throw new AppError('provider_error', `The local embedding model failed: ${res.message}`);
      w.done.push(...checkVectors(this.model, this.dimensions, count, res.vectors));
    } catch (e) {
      this.drop(w);
      w.reject(e);
      return;
    }
    if (w.done.length < w.texts.length) return;
    this.drop(w);
    w.resolve(w.done);
  }

  async close(): Promise<void> {
    this.closed = true;
    // The request in the worker is still in `waiting` (it leaves the line only when complete).
    const pending = [...this.waiting];
    this.waiting = [];
    this.inFlight = null;
    for (const w of pending) w.reject(new AppError('cancelled', 'The local embedder was closed.'));
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

function abortError(signal?: AbortSignal): unknown {
  const reason: unknown = signal?.reason;
  return reason instanceof AppError ? reason : new AppError('cancelled', 'The embedding request was stopped.');
}
