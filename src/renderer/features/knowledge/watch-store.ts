import { create } from 'zustand';
import type { FolderWatch } from '../../../shared/api';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { reportError } from '../../stores/toasts';

/** The active persona's watched folders (docs/watched-folders.md). */
interface WatchState {
  persona: string | null;
  watches: FolderWatch[];
  /** The folders the browser version may watch inside; null in the desktop app (the folder picker decides). */
  allowedDirs: string[] | null;
  /** The last refusal of a watch, shown beside the form until the next try. */
  refusal: string | null;
  busy: boolean;
  open(persona: string): void;
  reload(): Promise<void>;
  watch(folder: string): Promise<boolean>;
  /** The desktop app: the folder picker, then watch what was chosen. */
  pickAndWatch(): Promise<void>;
  unwatch(folder: string): Promise<void>;
}

export const useWatches = create<WatchState>((set, get) => ({
  persona: null,
  watches: [],
  allowedDirs: null,
  refusal: null,
  busy: false,

  open(persona) {
    if (get().persona !== persona) set({ persona, watches: [], refusal: null });
    void get().reload();
  },

  async reload() {
    const persona = get().persona;
    if (!persona) return;
    try {
      const { watches, allowedDirs } = await getApi().invoke('knowledge.watches', { persona });
      if (get().persona === persona) set({ watches, allowedDirs });
    } catch (e) {
      reportError(e, 'Could not list the watched folders');
    }
  },

  async watch(folder) {
    const persona = get().persona;
    if (!persona) return false;
    set({ busy: true, refusal: null });
    try {
      await getApi().invoke('knowledge.watch', { persona, folder });
      await get().reload();
      return true;
    } catch (e) {
      set({ refusal: errorInfo(e).message });
      return false;
    } finally {
      set({ busy: false });
    }
  },

  async pickAndWatch() {
    const folder = await window.hearth?.pickFolder?.('Watch a folder');
    if (folder) await get().watch(folder);
  },

  async unwatch(folder) {
    const persona = get().persona;
    if (!persona) return;
    try {
      await getApi().invoke('knowledge.unwatch', { persona, folder });
      set((s) => ({ watches: s.watches.filter((w) => w.folder !== folder) }));
    } catch (e) {
      reportError(e, `Could not stop watching ${folder}`);
    }
  },
}));
