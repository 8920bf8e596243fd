import type { Memory, MemoryFilters } from '../../../shared/api';

/** The list's order, the same as memories.list: newest day first, then newest insert. */
export function compareMemories(a: Memory, b: Memory): number {
  if (a.day !== b.day) return a.day < b.day ? 1 : -1;
  if (a.insertedAt !== b.insertedAt) return a.insertedAt < b.insertedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function matchesFilters(m: Memory, f: MemoryFilters): boolean {
  if (f.category !== undefined && m.category !== f.category) return false;
  if (f.importanceMin !== undefined && m.importance < f.importanceMin) return false;
  if (f.importanceMax !== undefined && m.importance > f.importanceMax) return false;
  if (f.dayFrom !== undefined && m.day < f.dayFrom) return false;
  if (f.dayTo !== undefined && m.day > f.dayTo) return false;
  if (f.origin !== undefined && m.origin !== f.origin) return false;
  return true;
}

export function hasFilters(f: MemoryFilters): boolean {
  return Object.values(f).some((v) => v !== undefined);
}

/**
 * Puts a memory into the loaded, sorted slice: replaces it when present,
 * inserts it when it falls inside the loaded range (or the list is complete).
 * Returns null when nothing changed.
 */
export function placeMemory(items: Memory[], m: Memory, complete: boolean): { items: Memory[]; added: boolean } | null {
  const at = items.findIndex((x) => x.id === m.id);
  if (at >= 0) {
    const next = items.slice();
    next.splice(at, 1);
    return { items: insertSorted(next, m, true) ?? items, added: false };
  }
  const next = insertSorted(items, m, complete);
  return next ? { items: next, added: true } : null;
}

function insertSorted(items: Memory[], m: Memory, complete: boolean): Memory[] | null {
  const idx = items.findIndex((x) => compareMemories(m, x) < 0);
  if (idx < 0 && !complete) return null; // beyond the loaded pages: it will come with a later page
  const next = items.slice();
  next.splice(idx < 0 ? next.length : idx, 0, m);
  return next;
}

export type Row = { kind: 'day'; day: string; count: number } | { kind: 'memory'; memory: Memory };

/** The timeline: a header before each day's memories. */
export function toRows(items: Memory[]): Row[] {
  const rows: Row[] = [];
  let header: { kind: 'day'; day: string; count: number } | null = null;
  for (const m of items) {
    if (!header || header.day !== m.day) {
      header = { kind: 'day', day: m.day, count: 0 };
      rows.push(header);
    }
    header.count++;
    rows.push({ kind: 'memory', memory: m });
  }
  return rows;
}
