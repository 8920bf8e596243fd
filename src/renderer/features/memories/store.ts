import { create } from 'zustand';
import { changeActions } from './changes';
import { deletingActions } from './deleting';
import { editingActions } from './editing';
import { pagingActions } from './paging';
import { searchActions } from './searching';
import type { MemoriesState } from './state';
import { supersedingActions } from './superseding';

export { PAGE_SIZE } from './paging';
export { SEARCH_LIMIT } from './searching';
export { type MemoryDraft, UNDO_MS } from './state';

/** The Memories view's state; each step's actions live in the module named for it. */
export const useMemories = create<MemoriesState>((set, get) => ({
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

  ...pagingActions(set, get),
  ...searchActions(set, get),
  ...editingActions(set, get),
  ...supersedingActions(set, get),
  ...deletingActions(set, get),
  ...changeActions(set, get),

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
}));
