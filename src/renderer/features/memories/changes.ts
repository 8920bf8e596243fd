import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { isAppError } from '../../../shared/errors';
import { matchesFilters } from './order';
import { local, type MemoriesGet, type MemoriesSet, type MemoriesState } from './state';

/** A change made elsewhere (chat, MCP, an import, another window) brought into the loaded list. */
export function changeActions(set: MemoriesSet, get: MemoriesGet): Pick<MemoriesState, 'applyChange'> {
  const { place, drop } = local(set, get);
  // The newest change heard for each id: a row fetched for an older change (an update, then a delete
  // while the fetch was out) is not placed back over what the newer one did.
  const heard = new Map<string, number>();
  let changes = 0;
  return {
    async applyChange(e) {
      if (e.persona !== get().persona) return;
      const change = ++changes;
      for (const id of e.ids) heard.set(id, change);
      if (e.reason === 'delete') {
        drop(e.ids);
        for (const id of e.ids) heard.delete(id);
        return;
      }
      if (e.reason === 'write' || e.reason === 'restore') void get().loadCategories();
      const persona = e.persona;
      // Few ids: fetch just those rows. A burst (import, review): reload the first page.
      if (e.ids.length > 20) {
        await get().reload();
        return;
      }
      for (const id of e.ids) {
        try {
          const memory = await getApi().invoke('memories.get', { id });
          if (get().persona !== persona) return;
          if (heard.get(id) !== change) continue;
          if (matchesFilters(memory, get().filters)) place(memory);
          else drop([memory.id]);
          if (get().focused?.id === memory.id) set({ focused: memory });
        } catch (err) {
          // Gone meanwhile (deleted right after the change): drop it like a delete.
          if (isAppError(err) && err.code === 'not_found') drop([id]);
          else if (heard.get(id) !== change) continue;
          else reportError(err, 'Could not refresh a changed memory');
        } finally {
          if (heard.get(id) === change) heard.delete(id);
        }
      }
    },
  };
}
