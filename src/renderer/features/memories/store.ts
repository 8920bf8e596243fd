import { create } from 'zustand';
import type { Events, ISODate, Memory, MemoryFilters, RecallHit } from '../../../shared/api';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { reportError, useToasts } from '../../stores/toasts';
import { isAppError } from '../../../shared/errors';
import { withMemory, withoutMemories } from './merge';
import { matchesFilters } from './order';

export const PAGE_SIZE = 200;
export const UNDO_MS = 5000;
/** How many hits a memory search asks recall for. */
export const SEARCH_LIMIT = 50;

export interface MemoryDraft {
  content: string;
  category: string | null;
  importance: number;
  day: ISODate;
}

interface MemoriesState {
  persona: string | null;
  filters: MemoryFilters;
  items: Memory[];
  total: number;
  nextCursor: string | null;
  loading: boolean;
  loaded: boolean;
  /** Bumped by every reload, so an answer to an outdated request is dropped. */
  generation: number;
  categories: string[];
  query: string;
  hits: RecallHit[] | null;
  /** How many memories match the search and the filters at all (memories.search), and whether that is a lower bound. */
  matchTotal: number;
  matchTotalIsLowerBound: boolean;
  searching: boolean;
  composing: boolean;
  editingId: string | null;
  /** The memory a chat chip opened: drawn highlighted and scrolled to (docs/ui.md). */
  highlightId: string | null;
  /** Bumped to ask the view to focus the search box (keyboard shortcut). */
  focusSearch: number;
  /** The memory whose "Replace with a newer fact" editor is open. */
  replacingId: string | null;
  /** A memory shown on its own above the list (followed from a "superseded by" link). */
  focused: Memory | null;

  open(persona: string): void;
  setFilters(filters: MemoryFilters): void;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  loadCategories(): Promise<void>;
  search(query: string): Promise<void>;
  clearSearch(): void;
  setComposing(open: boolean): void;
  setEditing(id: string | null): void;
  setHighlight(id: string | null): void;
  requestSearchFocus(): void;
  create(draft: MemoryDraft): Promise<boolean>;
  /** The composer's "Update that one": the stored near-duplicate takes the typed text and fields. */
  updateThat(that: Memory, draft: MemoryDraft): Promise<boolean>;
  /** The composer's "Replace it": the typed memory supersedes the stored near-duplicate. */
  replaceThat(that: Memory, draft: MemoryDraft): Promise<boolean>;
  update(id: string, patch: Partial<MemoryDraft>): Promise<boolean>;
  remove(memory: Memory): Promise<void>;
  restore(memory: Memory): Promise<void>;
  applyChange(e: Events['memories.changed']): Promise<void>;
  setReplacing(id: string | null): void;
  /** Edit or replace a search hit: back to the list, the hit's row opened (above the list when not loaded). */
  openHit(memory: Memory, mode: 'edit' | 'replace'): void;
  replace(old: Memory, draft: MemoryDraft): Promise<boolean>;
  unsupersede(id: string): Promise<void>;
  focus(id: string | null): Promise<void>;
  placeRestored(m: Memory): void;
}

export const useMemories = create<MemoriesState>((set, get) => {
  const placeLocal = (m: Memory) => set(withMemory(get(), m));
  const dropLocal = (ids: string[]) => set(withoutMemories(get(), ids));

  return {
    persona: null,
    filters: {},
    items: [],
    total: 0,
    nextCursor: null,
    loading: false,
    loaded: false,
    generation: 0,
    categories: [],
    query: '',
    hits: null,
    matchTotal: 0,
    matchTotalIsLowerBound: false,
    searching: false,
    composing: false,
    editingId: null,
    highlightId: null,
    focusSearch: 0,
    replacingId: null,
    focused: null,

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

    setComposing(composing) {
      set({ composing });
    },

    setEditing(editingId) {
      set({ editingId });
    },

    setHighlight(highlightId) {
      set({ highlightId });
    },

    requestSearchFocus() {
      set((s) => ({ focusSearch: s.focusSearch + 1 }));
    },

    async create(draft) {
      const { persona } = get();
      if (!persona) return false;
      try {
        const memory = await getApi().invoke('memories.write', { persona, ...draft });
        placeLocal(memory);
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
        placeLocal(memory);
        set({ editingId: null });
        return true;
      } catch (e) {
        reportError(e, 'Could not update the memory');
        return false;
      }
    },

    async remove(target) {
      try {
        const { memory } = await getApi().invoke('memories.delete', { id: target.id });
        dropLocal([target.id]);
        useToasts.getState().push({
          kind: 'info',
          message: 'Memory deleted.',
          ttl: UNDO_MS,
          action: { label: 'Undo', run: () => void get().restore(memory) },
        });
      } catch (e) {
        // A second click on Delete (or a delete from elsewhere) finds it gone: that is what was asked.
        if (errorInfo(e).code === 'not_found') dropLocal([target.id]);
        else reportError(e, 'Could not delete the memory');
      }
    },

    async restore(memory) {
      try {
        placeLocal(await getApi().invoke('memories.restore', { memory }));
      } catch (e) {
        reportError(e, 'Could not restore the memory');
      }
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

    setReplacing(replacingId) {
      set({ replacingId });
    },

    async replace(old, draft) {
      const { persona } = get();
      if (!persona) return false;
      try {
        const newer = await getApi().invoke('memories.write', { persona, ...draft });
        placeLocal(newer);
        const superseded = await getApi().invoke('memories.supersede', { id: old.id, by: newer.id });
        placeLocal(superseded);
        placeLocal(await getApi().invoke('memories.get', { id: newer.id }));
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
        placeLocal(m);
        if (before.supersededBy) placeLocal(await getApi().invoke('memories.get', { id: before.supersededBy }));
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

    placeRestored(m) {
      placeLocal(m);
      if (get().focused?.id === m.id) set({ focused: m });
    },

    async applyChange(e) {
      if (e.persona !== get().persona) return;
      if (e.reason === 'delete') {
        dropLocal(e.ids);
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
          if (matchesFilters(memory, get().filters)) placeLocal(memory);
          else dropLocal([memory.id]);
          if (get().focused?.id === memory.id) set({ focused: memory });
        } catch (err) {
          // Gone meanwhile (deleted right after the change): drop it like a delete.
          if (isAppError(err) && err.code === 'not_found') dropLocal([id]);
          else reportError(err, 'Could not refresh a changed memory');
        }
      }
    },
  };
});
