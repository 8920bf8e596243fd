/** A FIFO async lock: PGlite has one connection, so a transaction must own it whole. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Callers holding or waiting for the lock. */
  private queued = 0;
  private releasedAt = performance.now();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.tail;
    this.tail = prev.then(() => next);
    try {
      await prev;
      return await fn();
    } finally {
      this.queued--;
      this.releasedAt = performance.now();
      release();
    }
  }

  /** How long nobody has held or waited for the lock (ms); null while someone does. */
  idleForMs(): number | null {
    return this.queued > 0 ? null : performance.now() - this.releasedAt;
  }
}
