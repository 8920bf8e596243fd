// Work the database does for itself at quiet moments (docs/durability.md, "Idle
// upkeep"). PGlite is one connection with no background processes: whatever
// Postgres would do in a checkpointer or autovacuum worker happens here, inside
// the statement lock, so it is done when nobody is waiting for it.
import type { Queryable } from './client';

export interface QuietTarget extends Queryable {
  /** How long no statement has run or waited (ms); null while one does or a transaction is open. */
  idleForMs(): number | null;
}

export interface QuietTimeOptions {
  /** How long no statement may have run or waited before the work (ms). */
  idleMs: number;
  /** How often to look (ms). */
  pollMs: number;
}

/**
 * Looks every `pollMs` whether the database has been quiet for `idleMs` and,
 * if so, asks `work()` to do one piece. One look at a time; a failed piece
 * loses nothing and is tried again at the next quiet moment.
 */
export abstract class QuietTimeWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    protected readonly db: QuietTarget,
    private readonly quiet: QuietTimeOptions,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  /** One piece of work, called only at a quiet moment. */
  protected abstract work(): Promise<void>;

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.tick().finally(() => (this.running = null));
    }, this.quiet.pollMs);
    this.timer.unref();
  }

  /** Stops looking; work under way finishes first (call before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  protected isQuiet(): boolean {
    const idle = this.db.idleForMs();
    return !this.stopped && idle !== null && idle >= this.quiet.idleMs;
  }

  /** After a look (itself a statement): nothing else arrived meanwhile and nobody stopped us. */
  protected stillFree(): boolean {
    return !this.stopped && this.db.idleForMs() !== null;
  }

  private async tick(): Promise<void> {
    if (!this.isQuiet()) return;
    try {
      await this.work();
    } catch (e) {
      this.onError(e);
    }
  }
}
