import type { CoreContext } from '../context';

// Imports in flight, by the name the progress events carry (the file's name).
// Keyed by the core's context, as chat turns are (src/core/conversations/running.ts),
// so two cores in one process never cancel each other's imports.
const running = new WeakMap<CoreContext['events'], Map<string, Set<AbortController>>>();

function table(ctx: CoreContext): Map<string, Set<AbortController>> {
  // The event bus, not the context object: an import may run with a copy of the context ({...ctx, db}).
  let t = running.get(ctx.events);
  if (!t) {
    t = new Map();
    running.set(ctx.events, t);
  }
  return t;
}

/** Registers one import under `name`; `release` when it settles. */
export function trackImport(ctx: CoreContext, name: string): { signal: AbortSignal; release: () => void } {
  const t = table(ctx);
  const controller = new AbortController();
  const set = t.get(name) ?? new Set();
  set.add(controller);
  t.set(name, set);
  return {
    signal: controller.signal,
    release: () => {
      set.delete(controller);
      if (!set.size && t.get(name) === set) t.delete(name);
    },
  };
}

/** Cancels every import running under `name`; how many there were. */
export function cancelImport(ctx: CoreContext, name: string): number {
  const set = table(ctx).get(name);
  if (!set) return 0;
  for (const c of set) c.abort();
  return set.size;
}
