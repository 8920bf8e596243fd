import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../workers';
import type { LocalEmbedAnswer, LocalEmbedRequest, LocalEmbedResponse } from './local-protocol';

/** How long the loaded model stays after its last user closed: a persona reopened meanwhile does not load it again. */
export const IDLE_KEEP_MS = 60_000;
/** Model threads at most: the model is compute-bound, so a thread beyond the cores only adds memory (~140 MB each). */
export const MAX_MODEL_THREADS = 2;

/** One worker thread of the pool; `worker` is null until started and after it stopped. */
interface Slot {
  worker: Worker | null;
  loaded: boolean;
  /** Requests this thread holds and has not answered. */
  held: Set<number>;
  /** How many of `held` are batch work. */
  batch: number;
  /** Requests this thread answered (skips not counted), for the benches' account of the work. */
  answered: number;
  /** Stops a spare thread (not the first) once it has had nothing to do for a while. */
  idleTimer: NodeJS.Timeout | null;
}

interface Pending {
  /** A query, or the query thread's own first call: neither counts as batch work. */
  urgent: boolean;
  /** The threads that hold this request: a query goes to every running one, the first free one runs it. */
  holders: Set<Slot>;
  resolve(res: LocalEmbedAnswer): void;
  reject(e: Error): void;
}

/**
 * The built-in model's worker threads, shared by every LocalEmbedder of the
 * process (each open persona's core, a backup check): the weights and TF.js are
 * loaded once per thread, not once per core (docs/testing.md, "Sixth round: unit").
 *
 * With two threads (a machine with two cores or more) batch work spreads over
 * both, and a recall query goes to both: each thread's line puts it before its
 * waiting batch work, and the first thread to finish its current call runs it
 * (the other skips it, through a shared claim flag), so a query waits for the
 * shorter of the two calls in progress (docs/embeddings.md, "Two model threads").
 * While the second thread runs, a third one at the process's priority computes
 * the queries once loaded, so they wait for no batch call (docs/embeddings.md,
 * "The query thread"). The second thread starts when batch work would wait for the first, and stops
 * after IDLE_KEEP_MS without work; all of them stop IDLE_KEEP_MS after the last
 * lease is returned. No thread keeps the process alive on its own.
 */
export class LocalModelPool {
  private readonly slots: Slot[];
  /**
   * With two batch threads, a third thread that computes queries only, at the process's priority: it
   * runs while the spare batch thread does (big batch work), so a query asked then waits for no batch
   * call (docs/embeddings.md, "The query thread"). Null on a one-core machine.
   */
  private readonly querySlot: Slot | null;
  /** One Int32 per thread, 1 while it runs a query: the other threads' batch work waits meanwhile (local-worker.ts). */
  private readonly queries: Int32Array;
  private leases = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  /** How long the model's load took (worker start excluded), once known. */
  loadMs: number | null = null;

  /** `threads`: how many model threads at most; one per core up to MAX_MODEL_THREADS unless given. */
  constructor(
    threads = Math.min(MAX_MODEL_THREADS, availableParallelism()),
    private readonly idleKeepMs = IDLE_KEEP_MS,
  ) {
    const slot = (): Slot => ({ worker: null, loaded: false, held: new Set<number>(), batch: 0, answered: 0, idleTimer: null });
    this.slots = Array.from({ length: Math.max(1, threads) }, slot);
    this.querySlot = this.slots.length > 1 ? slot() : null;
    // One flag per thread, the query thread's last: batch threads also pause while it runs a query.
    this.queries = new Int32Array(new SharedArrayBuffer(4 * (this.slots.length + (this.querySlot ? 1 : 0))));
  }

  /** How many model threads this pool runs at most. */
  get size(): number {
    return this.slots.length;
  }

  /** How many threads are running now. */
  running(): number {
    return this.slots.filter((s) => s.worker).length;
  }

  /** Whether the query thread is running, and whether its model is loaded (it then takes every query). */
  queryThread(): { running: boolean; loaded: boolean; answered: number } {
    const q = this.querySlot;
    return { running: !!q?.worker, loaded: !!q?.loaded, answered: q?.answered ?? 0 };
  }

  /** How many requests each batch thread answered so far (the same thread keeps its place after a restart). */
  answeredByThread(): number[] {
    return this.slots.map((s) => s.answered);
  }

  /** True when the model is loaded in a running thread. */
  warm(): boolean {
    return this.slots.some((s) => s.loaded);
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
   * Embeds one sub-batch; rejects when its thread stops before answering.
   * `urgent` (a recall query) runs before every batch sub-batch waiting in a
   * thread, right after the call the first free thread is computing.
   */
  run(texts: string[], urgent = false): Promise<LocalEmbedAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const p: Pending = { urgent, holders: new Set(), resolve, reject };
      this.pending.set(id, p);
      const slots = urgent ? this.queryThreads() : [this.batchThread()];
      // Two threads holding one query: whichever starts it first takes it (local-worker.ts).
      const claim = slots.length > 1 ? new SharedArrayBuffer(4) : undefined;
      try {
        for (const slot of slots) this.post(slot, id, p, { id, texts, urgent, claim });
      } catch (e) {
        // A thread that cannot start: the request fails now unless another thread took it.
        if (p.holders.size > 0) return;
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  /**
   * A query goes to the query thread once its model is loaded; before that (and without one) to every
   * running batch thread (the first one if none runs): it must not start a thread to wait for its load.
   */
  private queryThreads(): Slot[] {
    if (this.querySlot?.worker && this.querySlot.loaded) return [this.querySlot];
    const running = this.slots.filter((s) => s.worker);
    return running.length ? running : [this.slots[0]!];
  }

  /** Batch work goes to the thread with the least batch work; a spare thread starts only when the running ones all have some. */
  private batchThread(): Slot {
    let best: Slot | null = null;
    for (const s of this.slots) {
      if (!s.worker) continue;
      if (!best || s.batch < best.batch) best = s;
    }
    // One computing and one waiting in the running threads: a spare thread is worth its load.
    if (best && best.batch < 2) return best;
    return this.slots.find((s) => !s.worker) ?? best!;
  }

  private post(slot: Slot, id: number, p: Pending, req: LocalEmbedRequest): void {
    // Batch work starting the spare thread is big: the query thread starts with it, before a query needs it.
    if (!p.urgent && !slot.worker && slot !== this.slots[0]) this.startQueryThread();
    const worker = this.ensureWorker(slot);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    p.holders.add(slot);
    slot.held.add(id);
    if (!p.urgent) slot.batch++;
    worker.ref();
    worker.postMessage(req);
  }

  /**
   * Starts the query thread and has it load the model and make its first call (the first call of a
   * thread costs several times a later one) with a text of its own, whose answer nobody reads.
   */
  private startQueryThread(): void {
    const slot = this.querySlot;
    if (!slot) return;
    if (slot.worker) {
      // Still running from earlier batch work: it stays.
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      return;
    }
    const id = this.nextId++;
    const p: Pending = { urgent: true, holders: new Set(), resolve: () => undefined, reject: () => undefined };
    this.pending.set(id, p);
    try {
      // Not marked urgent for the worker: batch threads need not pause for it.
      this.post(slot, id, p, { id, texts: ['a first call'], urgent: false });
    } catch {
      // A query thread that cannot start: queries keep going to the batch threads.
      this.pending.delete(id);
    }
  }

  /** Forgets that `slot` holds request `id`; true if it did. */
  private release(slot: Slot, id: number): boolean {
    if (!slot.held.delete(id)) return false;
    const p = this.pending.get(id);
    p?.holders.delete(slot);
    if (p && !p.urgent) slot.batch--;
    if (slot.held.size === 0 && slot.worker) {
      // Idle between requests: an open core still holds a lease, but a thread alone must not keep a process running.
      slot.worker.unref();
      // A spare batch thread stops after a while without work; the query thread too, once no spare runs
      // (the first batch thread, idle then, answers a query at once).
      if (slot !== this.slots[0] && (slot !== this.querySlot || !this.spareRunning())) {
        slot.idleTimer = setTimeout(() => void this.stopSpare(slot), this.idleKeepMs);
        slot.idleTimer.unref();
      }
    }
    return true;
  }

  private spareRunning(): boolean {
    return this.slots.some((s) => s !== this.slots[0] && s.worker);
  }

  /**
   * A spare thread (a batch thread but the first, or the query thread) idle for IDLE_KEEP_MS stops; the
   * query thread stops with the last spare batch thread unless it is computing a query.
   */
  private async stopSpare(slot: Slot): Promise<void> {
    const stopping = [this.stopSlot(slot, slot === this.querySlot ? 'the query thread was idle' : 'the spare model thread was idle')];
    const q = this.querySlot;
    if (q && q !== slot && q.worker && q.held.size === 0 && !this.spareRunning()) stopping.push(this.stopSlot(q, 'the query thread was idle'));
    await Promise.all(stopping);
  }

  private indexOf(slot: Slot): number {
    return slot === this.querySlot ? this.slots.length : this.slots.indexOf(slot);
  }

  private ensureWorker(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const batch = slot !== this.querySlot;
    const worker = startWorker('embed-worker', { workerData: { queries: this.queries, me: this.indexOf(slot), batch } });
    worker.on('message', (res: LocalEmbedResponse) => {
      if (slot.worker !== worker || !this.release(slot, res.id)) return;
      if ('loadMs' in res) {
        slot.loaded = true;
        if (res.loadMs !== null) this.loadMs = res.loadMs;
      }
      const p = this.pending.get(res.id);
      // Another thread took this query: the one that runs it answers.
      if (!p || 'skipped' in res) return;
      slot.answered++;
      this.pending.delete(res.id);
      for (const other of [...p.holders]) this.release(other, res.id);
      p.resolve(res);
    });
    const fail = (e: Error) => {
      if (slot.worker !== worker) return;
      this.forget(slot, e);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    slot.worker = worker;
    return worker;
  }

  /**
   * A thread is gone: the requests it held fail unless another thread still
   * holds them (a query sent to both), and the next request starts it again.
   */
  private forget(slot: Slot, e: Error): Worker | null {
    const worker = slot.worker;
    slot.worker = null;
    slot.loaded = false;
    // A thread that died in a query must not hold the others' batch work back.
    const me = this.indexOf(slot);
    Atomics.store(this.queries, me, 0);
    Atomics.notify(this.queries, me);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    for (const id of [...slot.held]) {
      this.release(slot, id);
      const p = this.pending.get(id);
      if (!p || p.holders.size > 0) continue;
      this.pending.delete(id);
      p.reject(e);
    }
    slot.batch = 0;
    return worker;
  }

  private async stopSlot(slot: Slot, why: string): Promise<void> {
    // Before terminate, so its exit event finds nothing to fail twice.
    const worker = this.forget(slot, new Error(why));
    await worker?.terminate();
  }

  /** Ends every thread now; requests in them fail. The next request starts a new one. */
  async stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await Promise.all([...this.slots, ...(this.querySlot ? [this.querySlot] : [])].map((s) => this.stopSlot(s, 'the model thread was stopped')));
  }
}

let shared: LocalModelPool | null = null;

/** The process's model threads, made on first use. */
export function sharedModelPool(): LocalModelPool {
  return (shared ??= new LocalModelPool());
}
