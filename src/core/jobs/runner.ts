import type { EventName, JobQueue } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { backoffDelay } from './backoff';
import { type JobRow, toJob } from './row';
import { claimJobs, completeJob, failJob, msUntilNextDue, recoverInterrupted, releaseJob, renewLeases, setProgress } from './store';
import type { JobContext, QueueDef, QueueDefs } from './types';

export interface JobRunnerOptions {
  /** Delay before the first retry (doubling after each failure). Production: seconds. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Longest wait between looks for due work when nothing wakes the runner. */
  pollMs: number;
  /** On close, how long running jobs get to notice the abort and stop. */
  stopGraceMs: number;
  /**
   * On a shared server: how long a claim holds unless renewed. The runner renews its jobs'
   * leases every third of it, and puts back jobs whose lease ran out (their Hearth stopped).
   */
  leaseMs: number;
  random?: () => number;
}

export const DEFAULT_JOB_RUNNER_OPTIONS: JobRunnerOptions = {
  backoffBaseMs: 2_000,
  backoffMaxMs: 10 * 60_000,
  pollMs: 1_000,
  stopGraceMs: 3_000,
  leaseMs: 60_000,
};

// Writes signal that work may have been enqueued (memories, knowledge, personas…);
// streaming and progress events do not.
const QUIET_EVENTS = new Set<EventName>(['chat.token', 'ingest.progress', 'jobs.changed']);

/**
 * Runs the durable queue in the core thread: claims due jobs per queue up to
 * the queue's concurrency, runs their work, records the outcome, retries with
 * exponential backoff and jitter, and discards after the last attempt. Only
 * this thread writes job state; heavy work lives in the work's own workers.
 */
export class JobRunner {
  private running = new Map<string, { queue: JobQueue; done: Promise<void> }>();
  private abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private tickDone: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Set when close gave up waiting: from then on nothing is written. */
  private abandoned = false;
  private unsubscribe: (() => void) | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;

  constructor(
    private ctx: CoreContext,
    private defs: QueueDefs,
    private o: JobRunnerOptions,
  ) {}

  /** Several Hearths share the jobs table (a server, docs/server-mode.md): claims carry a lease. */
  private get shared(): boolean {
    return this.ctx.db.kind === 'server';
  }

  async start(): Promise<void> {
    // PGlite has one owner: whatever is still running was left by its last run. On a server only
    // jobs whose lease ran out were; the others are being run by another Hearth right now.
    for (const row of await recoverInterrupted(this.ctx.db, this.shared)) this.emit(row);
    if (this.shared) {
      this.leaseTimer = setInterval(() => void this.keepLeases(), this.o.leaseMs / 3);
      this.leaseTimer.unref();
    }
    this.unsubscribe = this.ctx.events.subscribe((name) => {
      if (!QUIET_EVENTS.has(name)) this.wake();
    });
    this.wake();
  }

  /** Look for due work now (coalesced with a look already under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.tickDone) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.tickDone = this.tick().finally(() => (this.tickDone = null));
  }

  private async tick(): Promise<void> {
    let nextMs = this.o.pollMs;
    try {
      do {
        this.again = false;
        const open = this.openQueues();
        if (!open.length || this.stopped) break;
        // One look for all queues first: an idle Hearth asks once a second, not once per queue.
        const due = await msUntilNextDue(this.ctx.db, open);
        if (due === null) break;
        if (due > 0) {
          nextMs = Math.min(nextMs, due + 5);
          break;
        }
        let claimed = 0;
        for (const queue of open) {
          const def = this.defs[queue]!;
          const free = def.concurrency - this.count(queue);
          if (free <= 0 || this.stopped) continue;
          for (const row of await claimJobs(this.ctx.db, queue, free, this.shared ? this.o.leaseMs : null)) {
            this.launch(queue, def, row);
            claimed++;
          }
        }
        // Claimed something: look again at once (more may be due, or due soon). Claimed nothing
        // although due (another Hearth got there first): the next look is the poll's.
        if (claimed) this.again = true;
      } while (this.again && !this.stopped);
    } catch (e) {
      if (!this.stopped) console.error('jobs: looking for due work failed:', e);
    }
    this.schedule(nextMs);
  }

  /** Queues with room for another job. */
  private openQueues(): JobQueue[] {
    return this.queues()
      .filter(([q, d]) => this.count(q) < d.concurrency)
      .map(([q]) => q);
  }

  /** Wakes up in `ms` unless a wake-up is already due sooner. */
  private schedule(ms: number): void {
    if (this.stopped) return;
    const at = performance.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, ms);
  }

  private queues(): [JobQueue, QueueDef][] {
    return Object.entries(this.defs) as [JobQueue, QueueDef][];
  }

  private count(queue: JobQueue): number {
    let n = 0;
    for (const r of this.running.values()) if (r.queue === queue) n++;
    return n;
  }

  /** Renews the leases of the jobs running here, and puts back jobs another Hearth left when it stopped. */
  private async keepLeases(): Promise<void> {
    if (this.stopped || this.abandoned) return;
    try {
      await renewLeases(this.ctx.db, [...this.running.keys()], this.o.leaseMs);
      const back = await recoverInterrupted(this.ctx.db, true);
      for (const row of back) this.emit(row);
      if (back.length) this.wake();
    } catch (e) {
      if (!this.stopped) console.error('jobs: renewing leases failed:', e);
    }
  }

  private emit(row: JobRow | null): void {
    if (row) this.ctx.events.emit('jobs.changed', { job: toJob(row) });
  }

  private launch(queue: JobQueue, def: QueueDef, row: JobRow): void {
    const job = toJob(row);
    this.emit(row);
    const jc: JobContext = {
      job,
      signal: this.abort.signal,
      progress: async (p) => {
        if (this.abandoned) return;
        this.emit(await setProgress(this.ctx.db, job.id, p));
      },
    };
    const done = (async () => {
      let error: unknown = null;
      try {
        if (this.stopped) throw new AppError('cancelled', 'Hearth is closing.');
        await def.work(job.args, jc, this.ctx);
      } catch (e) {
        error = e ?? new Error('job failed without a reason');
      }
      await this.finish(def, job, error);
    })()
      .catch((e) => {
        if (!this.abandoned) console.error(`jobs: could not record the outcome of ${queue} job ${job.id}:`, e);
      })
      .finally(() => {
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { queue, done });
  }

  private async finish(def: QueueDef, job: ReturnType<typeof toJob>, error: unknown): Promise<void> {
    if (this.abandoned) return;
    const db = this.ctx.db;
    if (error === null) {
      this.emit(await completeJob(db, job.id));
      return;
    }
    if (this.stopped && this.abort.signal.aborted) {
      // Stopped by our own close, not by a fault: back in line, attempt not counted.
      this.emit(await releaseJob(db, job.id));
      return;
    }
    const message = describe(error);
    const delay = backoffDelay(job.attempt, { baseMs: this.o.backoffBaseMs, maxMs: this.o.backoffMaxMs }, this.o.random);
    const row = await failJob(db, job.id, message, delay, isPermanent(error));
    this.emit(row);
    if (row?.state === 'discarded') {
      console.warn(`jobs: ${job.queue} job ${job.id} discarded after ${row.attempt} attempts: ${message}`);
      await def.onDiscard?.(job.args, message, this.ctx);
    } else if (row) {
      console.warn(`jobs: ${job.queue} job ${job.id} attempt ${row.attempt}/${row.max_attempts} failed (${message}); retry in ${delay} ms`);
      this.schedule(delay + 5);
    }
  }

  /** Stops claiming, aborts running work, waits (bounded) for it to settle. Call before the database closes. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort(new AppError('cancelled', 'Hearth is closing.'));
    const settled = (async () => {
      await this.tickDone;
      await Promise.allSettled([...this.running.values()].map((r) => r.done));
    })();
    let timeout: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => (timeout = setTimeout(() => resolve(true), this.o.stopGraceMs))),
    ]);
    clearTimeout(timeout);
    if (gaveUp) {
      // They keep `running` in the database; the next start puts them back in line.
      this.abandoned = true;
      console.warn(`jobs: ${this.running.size} job(s) did not stop within ${this.o.stopGraceMs} ms; they resume at next start`);
    }
  }
}

/**
 * A failure no retry can fix (a corrupt or encrypted file, say): the work
 * throws an AppError with `details.retryable === false` and the job is
 * discarded at once.
 */
export function isPermanent(e: unknown): boolean {
  if (!(e instanceof AppError) || typeof e.details !== 'object' || e.details === null) return false;
  return (e.details as { retryable?: unknown }).retryable === false;
}

/** The text kept in `last_error` and the error history. */
export function describe(e: unknown): string {
  if (e instanceof AppError) return `${e.code}: ${e.message}`;
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}
