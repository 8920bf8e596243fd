import type { Envelope } from './errors';

/** What the preload script exposes on window.hearth (src/preload); the renderer's IPC transport uses it. */
export interface PreloadBridge {
  invoke(method: string, args: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (name: string, payload: unknown) => void): () => void;
  pathForFile(file: File): string | null;
  /** Opens the system's folder picker; the chosen folder (granted for knowledge.watch) or null when cancelled. */
  pickFolder?(): Promise<string | null>;
}
