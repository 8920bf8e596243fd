import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import type { MemoriesGet, MemoriesSet, MemoriesState } from './state';

/** How many hits a memory search asks recall for. */
export const SEARCH_LIMIT = 50;

/** Searching the persona's memories under the filters, and opening a hit for editing or replacing. */
export function searchActions(set: MemoriesSet, get: MemoriesGet): Pick<MemoriesState, 'search' | 'clearSearch' | 'openHit'> {
  return {
    async search(query) {
      const { persona, filters } = get();
      const q = query.trim();
      set({ query, highlightId: null });
      if (!persona || !q) {
        set({ hits: null, searching: false });
        return;
      }
      set({ searching: true });
      try {
        const r = await getApi().invoke('memories.search', { persona, query: q, limit: SEARCH_LIMIT, filters });
        // Keep only the answer to the latest question with the current filters.
        if (get().query.trim() === q && get().persona === persona && get().filters === filters) {
          set({ hits: r.hits, matchTotal: r.total, matchTotalIsLowerBound: r.totalIsLowerBound, searching: false });
        }
      } catch (e) {
        set({ searching: false });
        reportError(e, 'Search failed');
      }
    },

    clearSearch() {
      set({ query: '', hits: null, searching: false });
    },

    openHit(memory, mode) {
      // A hit from beyond the loaded pages has no row in the list to open: it opens above it instead,
      // where a linked memory does, so the editor is always on screen.
      const inList = get().items.some((m) => m.id === memory.id);
      get().clearSearch();
      if (!inList) set({ focused: memory });
      if (mode === 'edit') get().setEditing(memory.id);
      else get().setReplacing(memory.id);
    },
  };
}
