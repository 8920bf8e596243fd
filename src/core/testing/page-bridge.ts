import { vi } from 'vitest';
import type { PreloadBridge } from '../../shared/bridge';
import type { Envelope } from '../../shared/errors';
import type { TestCore } from './core';

/**
 * Puts the preload bridge Electron's renderer uses (window.hearth) over a real test core, so a renderer
 * store runs against the core as in the app. `afterAnswer` runs once a call is answered and before the
 * store sees the answer: a test holds an answer there to order it against events at a known point.
 * Returns the removal, for afterAll.
 */
export function installPageBridge(
  core: TestCore,
  options: { afterAnswer?: (method: string, answer: Envelope<unknown>) => Promise<void>; pathForFile?: (file: File) => string } = {},
): () => void {
  // Test files share a process (isolate: false): fresh renderer modules, so the page's API client is made
  // over this bridge, not one an earlier file left behind with its core closed.
  vi.resetModules();
  const bridge: PreloadBridge = {
    async invoke(method, args) {
      const answer = await core.dispatch(method as never, args as never, { actor: 'user' });
      await options.afterAnswer?.(method, answer);
      return answer;
    },
    subscribe: (listener) => core.events.subscribe(listener),
    pathForFile: options.pathForFile ?? (() => null),
  };
  (globalThis as { window?: unknown }).window = { hearth: bridge };
  return () => delete (globalThis as { window?: unknown }).window;
}
