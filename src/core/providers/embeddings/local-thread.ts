import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../workers';
import type { LocalEmbedRequest, LocalEmbedResponse } from './local-protocol';

/** How long the loaded model stays after its last user closed: a persona reopened meanwhile does not load it again. */
export const IDLE_KEEP_MS = 60_000;

/**
 * The built-in model's worker thread, shared by every LocalEmbedder of the
 * process (each open persona's core, a backup check): the weights and TF.js
 * are loaded once, not once per core (docs/testing.md, "Sixth round: unit").
 * Embedders lease it; each keeps its own line of requests and keeps at most
 * two batch sub-batches in the thread (one computing, the next waiting, so the
 * model never waits for the core between them). The thread's line puts a
 * recall query before every waiting batch sub-batch, whichever embedder sent
 * it, and every answer goes back to the request that asked.
 * The thread ends IDLE_KEEP_MS after the last lease is returned, and never
 * keeps the process alive on its own.
 */
export class LocalModelThread {
  private worker: Worker | null = null;
  private leases = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private waiting = new Map<number, { resolve(res: LocalEmbedResponse): void; reject(e: Error): void }>();
  private nextId = 1;
  private loaded = false;
  /** How long the model's load took (worker start excluded), once known. */
  loadMs: number | null = null;

  constructor(private readonly idleKeepMs = IDLE_KEEP_MS) {}

  /** True when the model is loaded in a running thread. */
  warm(): boolean {
    return this.loaded;
  }

  /** Takes a lease; call the returned function once to give it back. */
  lease(): () => void {
    this.leases++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    let returned = false;
    return () => {
      if (returned) return;
      returned = true;
      if (--this.leases > 0) return;
      this.idleTimer = setTimeout(() => void this.stop(), this.idleKeepMs);
      this.idleTimer.unref();
    };
  }

  /**
   * Embeds one sub-batch; rejects when the thread stops before answering.
   * `urgent` (a recall query) runs before every batch sub-batch waiting in the
   * thread, right after the one it is computing.
   */
  run(texts: string[], urgent = false): Promise<LocalEmbedResponse> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const worker = this.ensureWorker();
      worker.ref();
      worker.postMessage({ id, texts, urgent } satisfies LocalEmbedRequest);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker('embed-worker');
    worker.on('message', (res: LocalEmbedResponse) => {
      const w = this.waiting.get(res.id);
      if (!w) return;
      this.waiting.delete(res.id);
      if (res.ok) {
        this.loaded = true;
        if (res.loadMs !== null) this.loadMs = res.loadMs;
      }
      // Idle between requests: an open core still holds a lease, but the thread alone must not keep a process running.
      if (this.waiting.size === 0) worker.unref();
      w.resolve(res);
    });
    const fail = (e: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.loaded = false;
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      for (const w of waiting) w.reject(e);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Ends the thread now; requests in it fail. The next request starts a new one. */
  async stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    if (!worker) return;
    // Before terminate, so its exit event finds nothing to fail twice.
    const waiting = [...this.waiting.values()];
    this.worker = null;
    this.loaded = false;
    this.waiting.clear();
    for (const w of waiting) w.reject(new Error('the model thread was stopped'));
    await worker.terminate();
  }
}

let shared: LocalModelThread | null = null;

/** The process's one model thread, made on first use. */
export function sharedModelThread(): LocalModelThread {
  return (shared ??= new LocalModelThread());
}
