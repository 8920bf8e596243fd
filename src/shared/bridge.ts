import type { Envelope } from './errors';

/** What the preload script exposes on window.hearth (src/preload); the renderer's IPC transport uses it. */
export interface PreloadBridge {
  invoke(method: string, args: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (name: string, payload: unknown) => void): () => void;
  pathForFile(file: File): string | null;
  /** The app's own folder dialog (the workspace, a watched folder): the chosen folder, granted to the page for this session, or null. */
  pickFolder?(title: string): Promise<string | null>;
  /** Opens the data folder in the system's file manager (the page never learns its path). */
  showDataFolder?(): Promise<void>;
}
