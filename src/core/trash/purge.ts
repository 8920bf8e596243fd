// The daily purge of the trash (docs/trash.md): an hourly look, while Hearth
// runs, for items older than `trashDays`; when there are some, a job on the
// durable queue removes them (a job cut off by a stop runs again at the next
// start, like any other).
import type { CoreContext } from '../context';
import { enqueueJob } from '../jobs/enqueue';
import type { QueueDef } from '../jobs/types';
import { readSettings } from '../settings/store';
import { purgeDue, purgeTrash } from './store';

export const trashPurgeQueue: QueueDef = {
  concurrency: 1,
  async work(_args, _jc, ctx) {
    const { trashDays } = await readSettings(ctx);
    await purgeTrash(ctx, trashDays, ctx.now());
  },
};

/**
 * Queues a purge when something is due and none is waiting. Nothing due, no job:
 * the Jobs view lists no daily row that did nothing.
 */
export async function schedulePurgeIfDue(ctx: CoreContext): Promise<boolean> {
  const { trashDays } = await readSettings(ctx);
  if (!(await purgeDue(ctx.db, trashDays, ctx.now()))) return false;
  const queued = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `SELECT 1 FROM jobs WHERE queue = 'trash_purge' AND state IN ('available', 'running', 'retryable') LIMIT 1`,
    );
    if (rows.length) return false;
    await enqueueJob(tx, { queue: 'trash_purge', persona: null, args: {} });
    return true;
  });
  if (queued) ctx.wakeJobs();
  return queued;
}

export class TrashPurgeSchedule {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: CoreContext,
    private readonly everyMs = 60 * 60 * 1000,
  ) {}

  start(firstCheckMs = 60_000): void {
    const check = () => {
      if (this.stopped) return;
      this.running = schedulePurgeIfDue(this.ctx).then(
        () => undefined,
        (e: unknown) => {
          if (!this.stopped) console.warn('Hearth: the trash purge could not be queued:', e instanceof Error ? e.message : e);
        },
      );
      void this.running.then(() => {
        if (!this.stopped) this.timer = setTimeout(check, this.everyMs).unref();
      });
    };
    this.timer = setTimeout(check, firstCheckMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
