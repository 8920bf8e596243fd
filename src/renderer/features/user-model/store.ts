import { create } from 'zustand';
import type { UserModelEntry } from '../../../shared/api';
import { getApi } from '../../api';
import { reportError, useToasts } from '../../stores/toasts';

const UNDO_MS = 6000;

export const SUGGESTED_DIMENSIONS = ['baseline', 'preferences', 'working_patterns', 'feedback', 'goals'];

interface UserModelState {
  persona: string | null;
  entries: UserModelEntry[];
  block: string;
  loaded: boolean;
  open(persona: string): void;
  reload(): Promise<void>;
  upsert(dimension: string, content: string, confidence: number): Promise<boolean>;
  remove(dimension: string): Promise<void>;
}

export const useUserModel = create<UserModelState>((set, get) => ({
  persona: null,
  entries: [],
  block: '',
  loaded: false,

  open(persona) {
    if (get().persona !== persona) set({ persona, entries: [], block: '', loaded: false });
    void get().reload();
  },

  async reload() {
    const { persona } = get();
    if (!persona) return;
    try {
      const [entries, block] = await Promise.all([
        getApi().invoke('userModel.list', { persona }),
        getApi().invoke('userModel.block', { persona }),
      ]);
      if (get().persona === persona) set({ entries, block, loaded: true });
    } catch (e) {
      set({ loaded: true });
      reportError(e, 'Could not load the user model');
    }
  },

  async upsert(dimension, content, confidence) {
    const { persona } = get();
    if (!persona) return false;
    try {
      await getApi().invoke('userModel.upsert', { persona, dimension, content, confidence });
      await get().reload();
      return true;
    } catch (e) {
      reportError(e, 'Could not save the dimension');
      return false;
    }
  },

  async remove(dimension) {
    const { persona } = get();
    if (!persona) return;
    const before = get().entries.find((x) => x.dimension === dimension);
    try {
      const { trashId } = await getApi().invoke('userModel.delete', { persona, dimension });
      await get().reload();
      if (before && trashId) {
        useToasts.getState().push({
          kind: 'info',
          message: `Removed “${dimension}”.`,
          ttl: UNDO_MS,
          // Undo takes it back out of the trash, history and all (docs/trash.md); the Trash view can later too.
          action: {
            label: 'Undo',
            run: () =>
              void getApi()
                .invoke('trash.restore', { id: trashId })
                .then(async () => {
                  if (get().persona === persona) await get().reload();
                })
                .catch((e: unknown) => reportError(e, 'Could not restore the dimension')),
          },
        });
      }
    } catch (e) {
      reportError(e, 'Could not remove the dimension');
    }
  },
}));
