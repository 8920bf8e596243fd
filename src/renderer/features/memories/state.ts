import type { StoreApi } from 'zustand';
import type { Events, ISODate, Memory, MemoryFilters, RecallHit } from '../../../shared/api';
import { withMemory, withoutMemories } from './merge';

export const UNDO_MS = 5000;

export interface MemoryDraft {
  content: string;
  category: string | null;
  importance: number;
  day: ISODate;
}

export interface MemoriesState {
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

export type MemoriesSet = StoreApi<MemoriesState>['setState'];
export type MemoriesGet = StoreApi<MemoriesState>['getState'];

/** Puts one memory where it belongs in the loaded list, and takes memories out of it, without a reload. */
export function local(set: MemoriesSet, get: MemoriesGet) {
  return {
    place: (m: Memory) => set(withMemory(get(), m)),
    drop: (ids: string[]) => set(withoutMemories(get(), ids)),
  };
}
