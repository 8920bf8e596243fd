import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';

// Chat turns in flight, one per persona. Keyed by the core's context (not a
// module-level map) so that two cores in one process never share turns. It
// sits with the conversations, below chat, because closing or deleting a
// conversation asks whether a turn is running.
const running = new WeakMap<CoreContext, Map<string, AbortController>>();

function table(ctx: CoreContext): Map<string, AbortController> {
  let t = running.get(ctx);
  if (!t) {
    t = new Map();
    running.set(ctx, t);
  }
  return t;
}

/** Claims the persona for one turn, or refuses with `busy`. Call `release` when done. */
export function claimTurn(ctx: CoreContext, persona: string): { signal: AbortSignal; release: () => void } {
  const t = table(ctx);
  if (t.has(persona)) throw new AppError('busy', 'The assistant is still answering in this persona. Wait for it, or stop it.');
  const controller = new AbortController();
  t.set(persona, controller);
  return { signal: controller.signal, release: () => void (t.get(persona) === controller && t.delete(persona)) };
}

export function cancelTurn(ctx: CoreContext, persona: string): boolean {
  const c = table(ctx).get(persona);
  if (!c) return false;
  c.abort();
  return true;
}

export function isBusy(ctx: CoreContext, persona: string): boolean {
  return table(ctx).has(persona);
}
