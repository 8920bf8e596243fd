import { AppError } from '../../../shared/errors';
import { checkVectors } from './check';
import { EMBEDDING_DEFAULTS, modelTag } from './config';
import type { LocalEmbedResponse } from './local-protocol';
import { nextSubBatch } from './local-sub-batch';
import { type LocalModelThread, sharedModelThread } from './local-thread';
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
 * in a worker thread that every LocalEmbedder of the process shares
 * (local-thread.ts), started and loaded on first use. Each embedder keeps its
 * own line: one of its sub-batches is in the thread at a time, and a request
 * stays at the head of the line until all its texts are done, so a recall
 * query (urgent) goes next, between two sub-batches of a big request, instead
 * of waiting for all of it (and behind at most one sub-batch of each other
 * embedder of the process).
 */
export class LocalEmbedder implements EmbeddingProvider {
  readonly model = modelTag(LOCAL);
  readonly dimensions = LOCAL.dimensions;
  readonly where = null;
  // ~87 short texts/s on one thread: a batch stays well under a second, so a query never waits long.
  readonly maxBatch = 16;
  private waiting: Waiting[] = [];
  private inFlight: { w: Waiting; count: number } | null = null;
  private closed = false;
  /** Gives back this embedder's lease on the thread; null until the first request. */
  private release: (() => void) | null = null;

  /** `thread`: the model thread to use; the process's shared one unless given. */
  constructor(private readonly thread: LocalModelThread = sharedModelThread()) {}

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

  private pump(): void {
    if (this.inFlight || this.closed) return;
    // The head stays in line until it is complete: an urgent request put in front meanwhile goes next.
    const w = this.waiting[0];
    if (!w) return;
    const from = w.done.length;
    const count = nextSubBatch(w.texts, from);
    const flight = { w, count };
    this.inFlight = flight;
    this.release ??= this.thread.lease();
    this.thread.run(w.texts.slice(from, from + count)).then(
      (res) => this.settle(flight, res),
      (e: Error) => this.settle(flight, e),
    );
  }

  /** `res` is an Error when the thread stopped before answering (the request fails; the next starts a new thread). */
  private settle(flight: { w: Waiting; count: number }, res: LocalEmbedResponse | Error): void {
    // Closed meanwhile: the answer is dropped.
    if (this.inFlight !== flight) return;
    this.inFlight = null;
    // Abandoned (cancelled) meanwhile: its answer is dropped.
    if (this.waiting.includes(flight.w)) this.accept(flight.w, flight.count, res);
    this.pump();
  }

  /** Adds a sub-batch's vectors to its request; any failure fails the whole request, nothing partial. */
  private accept(w: Waiting, count: number, res: LocalEmbedResponse | Error): void {
    try {
      if (res instanceof Error) throw new AppError('provider_error', `The local embedding model stopped: ${res.message}`);
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
    // The thread stays for the process's other embedders; a sub-batch of ours still in it finishes there unread.
    this.release?.();
    this.release = null;
  }
}

function abortError(signal?: AbortSignal): unknown {
  const reason: unknown = signal?.reason;
  return reason instanceof AppError ? reason : new AppError('cancelled', 'The embedding request was stopped.');
}
