import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { reportError, useToasts } from '../../stores/toasts';
import { local, type MemoriesGet, type MemoriesSet, type MemoriesState, UNDO_MS } from './state';

/** Deleting a memory into the trash with an Undo toast, and putting a restored one back on screen. */
export function deletingActions(set: MemoriesSet, get: MemoriesGet): Pick<MemoriesState, 'remove' | 'restore' | 'placeRestored'> {
  const { place, drop } = local(set, get);
  return {
    async remove(target) {
      try {
        const { memory } = await getApi().invoke('memories.delete', { id: target.id });
        drop([target.id]);
        useToasts.getState().push({
          kind: 'info',
          message: 'Memory deleted.',
          ttl: UNDO_MS,
          action: { label: 'Undo', run: () => void get().restore(memory) },
        });
      } catch (e) {
        // A second click on Delete (or a delete from elsewhere) finds it gone: that is what was asked.
        if (errorInfo(e).code === 'not_found') drop([target.id]);
        else reportError(e, 'Could not delete the memory');
      }
    },

    async restore(memory) {
      try {
        place(await getApi().invoke('memories.restore', { memory }));
      } catch (e) {
        reportError(e, 'Could not restore the memory');
      }
    },

    placeRestored(m) {
      place(m);
      if (get().focused?.id === m.id) set({ focused: m });
    },
  };
}
