import { getApi } from '../../api';
import { reportError, useToasts } from '../../stores/toasts';
import { local, type MemoriesGet, type MemoriesSet, type MemoriesState, UNDO_MS } from './state';

/** Replacing a memory with a newer fact (the old one kept as history), its undo, and following a "superseded by" link. */
export function supersedingActions(set: MemoriesSet, get: MemoriesGet): Pick<MemoriesState, 'setReplacing' | 'replace' | 'unsupersede' | 'focus'> {
  const { place } = local(set, get);
  return {
    setReplacing(replacingId) {
      set({ replacingId });
    },

    async replace(old, draft) {
      const { persona } = get();
      if (!persona) return false;
      try {
        const newer = await getApi().invoke('memories.write', { persona, ...draft });
        place(newer);
        const superseded = await getApi().invoke('memories.supersede', { id: old.id, by: newer.id });
        place(superseded);
        place(await getApi().invoke('memories.get', { id: newer.id }));
        set({ replacingId: null });
        useToasts.getState().push({
          kind: 'info',
          message: 'Memory superseded; the old one is kept as history.',
          ttl: UNDO_MS,
          action: { label: 'Undo', run: () => void get().unsupersede(old.id) },
        });
        return true;
      } catch (e) {
        reportError(e, 'Could not replace the memory');
        return false;
      }
    },

    async unsupersede(id) {
      try {
        const before = await getApi().invoke('memories.get', { id });
        const m = await getApi().invoke('memories.unsupersede', { id });
        place(m);
        if (before.supersededBy) place(await getApi().invoke('memories.get', { id: before.supersededBy }));
        if (get().focused?.id === id) set({ focused: m });
      } catch (e) {
        reportError(e, 'Could not undo the supersession');
      }
    },

    async focus(id) {
      if (!id) {
        set({ focused: null });
        return;
      }
      try {
        set({ focused: await getApi().invoke('memories.get', { id }) });
      } catch (e) {
        reportError(e, 'Could not open that memory');
      }
    },
  };
}
