// The app's doors (not an MCP stdio server, which loads only what its tools use): what a first
// recall would pay on its own is paid in quiet time after start (src/core/recall/warm-up.ts).
import { scheduleRecallWarmUp } from '../recall/warm-up';
import type { Core } from './options';

/** Schedules the recall warm-up for `core`; its close cancels a warm-up not yet done first. */
export function warmRecallAfterStart(core: Core): Core {
  const warm = scheduleRecallWarmUp(core.ctx);
  const close = core.close.bind(core);
  core.close = async () => {
    await warm.cancel();
    await close();
  };
  return core;
}
