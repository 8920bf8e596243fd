import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import type { MemoriesGet, MemoriesSet, MemoriesState } from './state';

export const PAGE_SIZE = 200;

/** The list: a persona's first page under the filters, the pages after it, and the categories to filter by. */
export function pagingActions(set: MemoriesSet, get: MemoriesGet): Pick<MemoriesState, 'open' | 'setFilters' | 'reload' | 'loadMore' | 'loadCategories'> {
  return {
    open(persona) {
      if (get().persona === persona && get().loaded) return;
      // Another persona's rows, search and open editor must not linger on screen while this one's load. The same
      // persona whose first load has not finished keeps what the person already asked for ("n" from another view
      // opens the editor before this view first mounts).
      const before = get().persona;
      if (before !== persona) {
        const composing = before === null && get().composing;
        set({ persona, filters: {}, query: '', hits: null, editingId: null, highlightId: null, composing, categories: [], replacingId: null, focused: null });
        set({ items: [], total: 0, nextCursor: null, loaded: false });
      }
      void get().reload();
      void get().loadCategories();
    },

    setFilters(filters) {
      set({ filters });
      void get().reload();
      // The filters narrow the search itself: ask again.
      if (get().query.trim()) void get().search(get().query);
    },

    async reload() {
      const { persona, filters } = get();
      if (!persona) return;
      const generation = get().generation + 1;
      set({ generation, loading: true });
      try {
        const page = await getApi().invoke('memories.list', { persona, filters, limit: PAGE_SIZE });
        if (get().generation !== generation) return;
        set({ items: page.items, total: page.total, nextCursor: page.nextCursor, loading: false, loaded: true });
      } catch (e) {
        if (get().generation !== generation) return;
        set({ loading: false, loaded: true, items: [], total: 0, nextCursor: null });
        reportError(e, 'Could not load memories');
      }
    },

    async loadMore() {
      const { persona, filters, nextCursor, loading, generation } = get();
      if (!persona || !nextCursor || loading) return;
      set({ loading: true });
      try {
        const page = await getApi().invoke('memories.list', { persona, filters, limit: PAGE_SIZE, cursor: nextCursor });
        if (get().generation !== generation) return;
        const seen = new Set(get().items.map((m) => m.id));
        set({
          items: [...get().items, ...page.items.filter((m) => !seen.has(m.id))],
          total: page.total,
          nextCursor: page.nextCursor,
          loading: false,
        });
      } catch (e) {
        if (get().generation === generation) set({ loading: false });
        reportError(e, 'Could not load more memories');
      }
    },

    async loadCategories() {
      const { persona } = get();
      if (!persona) return;
      try {
        const categories = await getApi().invoke('memories.categories', { persona });
        if (get().persona === persona) set({ categories });
      } catch (e) {
        reportError(e, 'Could not load categories');
      }
    },
  };
}
