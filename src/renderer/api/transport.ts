import type { Envelope, EventName, Events } from '../../shared/api';
import type { PreloadBridge } from '../../shared/bridge';

/** How the renderer reaches the core: Electron IPC or the browser host. */
export interface Transport {
  invoke(method: string, args: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: <E extends EventName>(name: E, payload: Events[E]) => void): () => void;
  /** The browser host's one-time downloads (an exported persona); Electron saves files itself. */
  download?(url: string): Promise<Blob>;
}

declare global {
  interface Window {
    hearth?: PreloadBridge;
  }
}
