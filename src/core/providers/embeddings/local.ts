import { AppError } from '../../../shared/errors';
import { checkVectors } from './check';
import { EMBEDDING_DEFAULTS, modelTag } from './config';
import type { LocalEmbedAnswer } from './local-protocol';
import { nextSubBatch } from './local-sub-batch';
import { type LocalModelPool, sharedModelPool } from './local-pool';
import type { EmbeddingProvider, EmbedOptions } from './types';

interface Waiting {
  texts: string[];
  /** How many of `texts` went to the thread so far (sub-batches are sent in order). */
  sent: number;
  /** One vector per text once answered; the caller gets them all or an error. */
  vectors: Float32Array[];
  answered: number;
  urgent: boolean;
  resolve(v: Float32Array[]): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
}

interface Flight {
  w: Waiting;
  from: number;
  count: number;
}

/** Batch sub-batches of one embedder in each model thread at once: one computing, the next waiting. */
const BATCH_IN_THREAD = 2;

const LOCAL = EMBEDDING_DEFAULTS.local!;

/**
 * The built-in Universal Sentence Encoder lite (512-d, no network, no key),
 * in worker threads that every LocalEmbedder of the process shares
 * (local-pool.ts), started and loaded on first use. Each embedder keeps its
 * own line and cuts big requests into sub-batches (local-sub-batch.ts), of
 * which at most BATCH_IN_THREAD per model thread are in the threads at a time.
 * A recall query (urgent) is sent at once and runs right after the sub-batch
 * a thread is computing, ahead of every waiting batch sub-batch of any
 * embedder (docs/embeddings.md).
 */
export class LocalEmbedder implements EmbeddingProvider {
  readonly model = modelTag(LOCAL);
  readonly dimensions = LOCAL.dimensions;
  readonly where = null;
  // The embedder cuts requests into sub-batches itself, so a query's wait does not grow with a request's
  // size. A big request spares the rounds where the model threads wait for the core between two requests
  // (an embedding job's ~90 windows in one request rather than six; docs/embeddings.md, "Two model threads").
  readonly maxBatch = 128;
  private waiting: Waiting[] = [];
  private inFlight: Flight[] = [];
  private closed = false;
  /** Gives back this embedder's lease on the threads; null until the first request. */
  private release: (() => void) | null = null;

  /** `thread`: the model threads to use; the process's shared ones unless given. */
  constructor(private readonly thread: LocalModelPool = sharedModelPool()) {}

  /** How long the model's load took (worker start excluded), once known. */
  get loadMs(): number | null {
    return this.thread.loadMs;
  }

  warm(): boolean {
    return this.thread.warm();
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
        sent: 0,
        vectors: new Array(texts.length),
        answered: 0,
        urgent: !!options.urgent,
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
        signal,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(w);
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

  private pump(): void {
    if (this.closed) return;
    for (const w of this.waiting) {
      // A query goes to the thread at once: its line runs it before any waiting batch sub-batch.
      while (w.urgent && w.sent < w.texts.length) this.send(w);
    }
    // Batch work in line order: the next request's first sub-batch may follow the last of the one before.
    for (const w of this.waiting) {
      while (!w.urgent && w.sent < w.texts.length && this.batchInThread() < BATCH_IN_THREAD * this.thread.size) this.send(w);
      if (this.batchInThread() >= BATCH_IN_THREAD * this.thread.size) return;
    }
  }

  private batchInThread(): number {
    return this.inFlight.filter((f) => !f.w.urgent).length;
  }

  private send(w: Waiting): void {
    const from = w.sent;
    const count = w.urgent ? w.texts.length - from : nextSubBatch(w.texts, from);
    w.sent += count;
    const flight: Flight = { w, from, count };
    this.inFlight.push(flight);
    this.release ??= this.thread.lease();
    this.thread.run(w.texts.slice(from, from + count), w.urgent).then(
      (res) => this.settle(flight, res),
      (e: Error) => this.settle(flight, e),
    );
  }

  /** `res` is an Error when the thread stopped before answering (the request fails; the next starts a new thread). */
  private settle(flight: Flight, res: LocalEmbedAnswer | Error): void {
    const i = this.inFlight.indexOf(flight);
    // Closed meanwhile: the answer is dropped.
    if (i < 0) return;
    this.inFlight.splice(i, 1);
    // Abandoned (cancelled) or failed meanwhile: its answer is dropped.
    if (this.waiting.includes(flight.w)) this.accept(flight, res);
    this.pump();
  }

  /** Adds a sub-batch's vectors to its request; any failure fails the whole request, nothing partial. */
  private accept({ w, from, count }: Flight, res: LocalEmbedAnswer | Error): void {
    try {
      if (res instanceof Error) throw new AppError('provider_error', `The local embedding model stopped: ${res.message}`);
      if (!res.ok) throw new AppError('provider_error', `The local embedding model failed: ${res.message}`);
      checkVectors(this.model, this.dimensions, count, res.vectors).forEach((v, k) => (w.vectors[from + k] = v));
      w.answered += count;
    } catch (e) {
      this.drop(w);
      w.reject(e);
      return;
    }
    if (w.answered < w.texts.length) return;
    this.drop(w);
    w.resolve(w.vectors);
  }

  async close(): Promise<void> {
    this.closed = true;
    // A request with sub-batches in the worker is still in `waiting` (it leaves the line only when complete).
    const pending = [...this.waiting];
    this.waiting = [];
    this.inFlight = [];
    for (const w of pending) w.reject(new AppError('cancelled', 'The local embedder was closed.'));
    // The thread stays for the process's other embedders; a sub-batch of ours still in it finishes there unread.
    this.release?.();
    this.release = null;
  }
}

function abortError(signal?: AbortSignal): unknown {
  const reason: unknown = signal?.reason;
  return reason instanceof AppError ? reason : new AppError('cancelled', 'The embedding request was stopped.');
}
