import { type DependencyList, useEffect } from 'react';
import type { EventName, Events } from '../../shared/api';
import { getApi } from './index';

/** Handlers for pushed events, by name. */
export type EventHandlers = { [E in EventName]?: (payload: Events[E]) => void };

/** A call deferred until a burst of calls has settled for `ms`; `cancel()` drops a pending one. */
export function debounce(fn: () => void, ms: number): (() => void) & { cancel(): void } {
  let t: ReturnType<typeof setTimeout> | null = null;
  const call = () => {
    if (t) clearTimeout(t);
    t = setTimeout(() => {
      t = null;
      fn();
    }, ms);
  };
  return Object.assign(call, {
    cancel() {
      if (t) clearTimeout(t);
      t = null;
    },
  });
}

/**
 * A call that runs at most once per `ms` while calls keep coming, and always once more after the last:
 * unlike `debounce`, a steady stream of events (an embedding backlog, an import) cannot hold it off.
 */
export function throttle(fn: () => void, ms: number): (() => void) & { cancel(): void } {
  let t: ReturnType<typeof setTimeout> | null = null;
  let again = false;
  const run = () => {
    t = null;
    if (!again) return;
    again = false;
    fn();
    t = setTimeout(run, ms);
  };
  const call = () => {
    again = true;
    t ??= setTimeout(run, Math.min(ms, 100));
  };
  return Object.assign(call, {
    cancel() {
      if (t) clearTimeout(t);
      t = null;
      again = false;
    },
  });
}

/**
 * The renderer's one way to follow pushed events: subscribes the handlers
 * `build` returns while the component is mounted (anew when `deps` change) and
 * unsubscribes them after. `onCleanup` registers what else to undo then, such
 * as a debounced reload still pending.
 */
export function useEvents(build: (onCleanup: (fn: () => void) => void) => EventHandlers, deps: DependencyList = []): void {
  useEffect(() => {
    const api = getApi();
    const cleanups: (() => void)[] = [];
    const handlers = build((fn) => cleanups.push(fn));
    for (const [name, handler] of Object.entries(handlers) as [EventName, (p: unknown) => void][]) {
      cleanups.push(api.on(name, handler));
    }
    return () => cleanups.forEach((fn) => fn());
    // `build` is read once per `deps`, as useEffect reads its own callback.
  }, deps);
}
