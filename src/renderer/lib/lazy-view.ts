import { type ComponentType, lazy } from 'react';

/** A view whose code loads the first time it is shown, from a module that exports it by name. */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}
