import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { local, type MemoriesGet, type MemoriesSet, type MemoriesState } from './state';

/** Writing a memory from the composer, saving an edit, and the composer's answers to a near-duplicate warning. */
export function editingActions(set: MemoriesSet, get: MemoriesGet): Pick<MemoriesState, 'create' | 'updateThat' | 'replaceThat' | 'update'> {
  const { place } = local(set, get);
  return {
    async create(draft) {
      const { persona } = get();
      if (!persona) return false;
      try {
        const memory = await getApi().invoke('memories.write', { persona, ...draft });
        place(memory);
        set({ composing: false });
        if (memory.category && !get().categories.includes(memory.category)) {
          set({ categories: [...get().categories, memory.category].sort() });
        }
        return true;
      } catch (e) {
        reportError(e, 'Could not save the memory');
        return false;
      }
    },

    async updateThat(that, draft) {
      const ok = await get().update(that.id, draft);
      if (ok) set({ composing: false });
      return ok;
    },

    async replaceThat(that, draft) {
      const ok = await get().replace(that, draft);
      if (ok) set({ composing: false });
      return ok;
    },

    async update(id, patch) {
      try {
        const memory = await getApi().invoke('memories.update', { id, ...patch });
        place(memory);
        set({ editingId: null });
        return true;
      } catch (e) {
        reportError(e, 'Could not update the memory');
        return false;
      }
    },
  };
}
