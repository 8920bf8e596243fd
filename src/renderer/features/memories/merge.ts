import type { Memory, RecallHit } from '../../../shared/api';
import { placeMemory } from './order';

/** The part of the browser's state that local changes and pushed events touch. */
export interface ListState {
  persona: string | null;
  items: Memory[];
  total: number;
  nextCursor: string | null;
  hits: RecallHit[] | null;
  editingId: string | null;
}

/** Merges one memory into the list and the search hits (idempotent: an event and our own answer may both arrive). */
export function withMemory(s: ListState, m: Memory): Partial<ListState> {
  if (m.persona !== s.persona) return {};
  const out: Partial<ListState> = {};
  const placed = placeMemory(s.items, m, s.nextCursor === null);
  if (placed) {
    out.items = placed.items;
    out.total = s.total + (placed.added ? 1 : 0);
  }
  if (s.hits) out.hits = s.hits.map((h) => (h.id === m.id ? { ...h, memory: m, content: m.content } : h));
  return out;
}

export function withoutMemories(s: ListState, ids: string[]): Partial<ListState> {
  const gone = new Set(ids);
  const items = s.items.filter((m) => !gone.has(m.id));
  return {
    items,
    total: Math.max(0, s.total - (s.items.length - items.length)),
    hits: s.hits ? s.hits.filter((h) => !gone.has(h.id)) : null,
    editingId: s.editingId && gone.has(s.editingId) ? null : s.editingId,
  };
}
