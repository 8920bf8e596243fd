import type { Envelope, EventName, Events } from '../../shared/api';

/** How the renderer reaches the core: Electron IPC or the browser host. */
export interface Transport {
  invoke(method: string, args: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: <E extends EventName>(name: E, payload: Events[E]) => void): () => void;
}

/** What the preload script exposes on window.hearth (src/preload). */
export interface PreloadBridge {
  invoke(method: string, args: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (name: string, payload: unknown) => void): () => void;
  pathForFile(file: File): string | null;
}

declare global {
  interface Window {
    hearth?: PreloadBridge;
  }
}
