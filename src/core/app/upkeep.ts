// createCore's last step: the checks and the quiet-time care of a data
// folder's PGlite (a server checks, checkpoints and vacuums itself).
import type { CoreContext } from '../context';
import { checkFirstReads, findLostRows, lostRowsNotice } from '../db/startup-check';
import { DEFAULT_IDLE_CHECKPOINT, IdleCheckpointer } from '../db/idle-checkpoint';
import { DEFAULT_IDLE_VACUUM, IdleVacuum } from '../db/idle-vacuum';
import { raiseNotice } from '../info/notices';
import type { CoreOptions } from './options';

export interface Upkeep {
  /** Settles once the damage check of the tables the first view reads has run: every call waits for it. */
  firstReadsChecked: Promise<void>;
  /** Settles when the check after start has run (at once when there is none, or once the core closes first). */
  startupChecked: Promise<void>;
  /** Cancels a check not yet begun and waits for one under way. */
  settle(): Promise<void>;
  /** Stops the idle checkpoint and vacuum. */
  stop(): Promise<void>;
}

const warn = (isClosed: () => boolean, what: string) => (e: unknown) => {
  if (!isClosed()) console.warn(`Hearth: ${what}:`, e instanceof Error ? e.message : e);
};

/**
 * Before the first call is answered: damage in the tables the first view reads becomes a notice it shows
 * (docs/durability.md, "Damage at start"), while the page's own files are already being served (docs/startup.md).
 */
function checkFirstReadsOf(ctx: CoreContext, isClosed: () => boolean): Promise<void> {
  if (!ctx.dataDir || !ctx.db.local) return Promise.resolve();
  return checkFirstReads(ctx.db, ctx.dataDir).then((found) => {
    for (const notice of found) raiseNotice(ctx, notice);
  }, warn(isClosed, 'the check at start could not run'));
}

/** The check after start: in the background, once, so start-up itself is not slowed. */
function scheduleStartupCheck(ctx: CoreContext, delay: number | null, isClosed: () => boolean) {
  let timer: NodeJS.Timeout | null = null;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (settle = resolve));
  // The check reads this folder's PGlite files; a server's integrity is the server's.
  if (ctx.dataDir && ctx.db.local && delay !== null) {
    timer = setTimeout(() => {
      timer = null;
      findLostRows(ctx.db)
        .then((problems) => {
          if (problems.length && !isClosed()) raiseNotice(ctx, lostRowsNotice(problems));
        })
        .catch(warn(isClosed, 'the check after start could not run'))
        .finally(settle);
    }, delay);
    timer.unref();
  } else {
    settle();
  }
  const cancel = () => {
    if (!timer) return;
    clearTimeout(timer);
    timer = null;
    settle();
  };
  return { done, cancel };
}

export function startUpkeep(ctx: CoreContext, options: CoreOptions, isClosed: () => boolean): Upkeep {
  const firstReadsChecked = checkFirstReadsOf(ctx, isClosed);
  const local = ctx.dataDir ? ctx.db.local : undefined;
  // Keeps the checkpoint a backup needs small: taken while nobody waits (docs/durability.md).
  const checkpointer = local
    ? new IdleCheckpointer(local, { ...DEFAULT_IDLE_CHECKPOINT, ...options.idleCheckpoint }, warn(isClosed, 'an idle checkpoint failed'))
    : null;
  checkpointer?.start();
  // PGlite has no autovacuum (docs/durability.md, "Idle vacuum").
  const vacuum = local ? new IdleVacuum(local, { ...DEFAULT_IDLE_VACUUM, ...options.idleVacuum }, warn(isClosed, 'an idle vacuum failed')) : null;
  vacuum?.start();
  const check = scheduleStartupCheck(ctx, options.startupCheckDelayMs === undefined ? 15_000 : options.startupCheckDelayMs, isClosed);
  return {
    firstReadsChecked,
    startupChecked: check.done,
    async settle() {
      check.cancel();
      await firstReadsChecked;
      await check.done;
    },
    async stop() {
      await checkpointer?.stop();
      await vacuum?.stop();
    },
  };
}
