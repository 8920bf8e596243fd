import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../shared/api';
import { compareMemories, matchesFilters, placeMemory, toRows } from './order';

function mem(id: string, day: string, insertedAt: string, extra: Partial<Memory> = {}): Memory {
  return {
    id,
    persona: 'main',
    category: null,
    content: `memory ${id}`,
    importance: 5,
    day,
    origin: 'manual',
    embeddingStatus: 'pending',
    embeddingModel: null,
    embeddingError: null,
    conversationId: null,
    insertedAt,
    updatedAt: insertedAt,
    ...extra,
  };
}

const a = mem('a', '2026-05-03', '2026-05-03T10:00:00.000Z');
const b = mem('b', '2026-05-03', '2026-05-03T09:00:00.000Z');
const c = mem('c', '2026-05-01', '2026-05-04T12:00:00.000Z');

describe('the memory list order (newest day, then newest insert, as memories.list pages it)', () => {
  it('sorts by day first, then insertion time', () => {
    expect([c, b, a].sort(compareMemories).map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });

  it('inserts a new memory at its place inside the loaded range', () => {
    const fresh = mem('d', '2026-05-02', '2026-05-05T00:00:00.000Z');
    expect(placeMemory([a, b, c], fresh, false)?.items.map((m) => m.id)).toEqual(['a', 'b', 'd', 'c']);
  });

  it('leaves a memory beyond the loaded pages to a later page, unless the list is complete', () => {
    const old = mem('e', '2025-01-01', '2025-01-01T00:00:00.000Z');
    expect(placeMemory([a, b, c], old, false)).toBeNull();
    expect(placeMemory([a, b, c], old, true)?.items.map((m) => m.id)).toEqual(['a', 'b', 'c', 'e']);
  });

  it('replaces an edited memory in place, or moves it when its day changed, without adding a row', () => {
    const edited = { ...b, content: 'changed' };
    const placed = placeMemory([a, b, c], edited, false);
    expect(placed?.added).toBe(false);
    expect(placed?.items.map((m) => m.content)).toEqual(['memory a', 'changed', 'memory c']);
    const moved = placeMemory([a, b, c], { ...a, day: '2026-04-30' }, false);
    expect(moved?.items.map((m) => m.id)).toEqual(['b', 'c', 'a']);
  });

  it('groups the timeline under one header per day', () => {
    const rows = toRows([a, b, c]);
    expect(rows.map((r) => (r.kind === 'day' ? `# ${r.day} (${r.count})` : r.memory.id))).toEqual([
      '# 2026-05-03 (2)',
      'a',
      'b',
      '# 2026-05-01 (1)',
      'c',
    ]);
  });

  it('applies the same filters as the core to live changes', () => {
    const m = mem('f', '2026-05-03', '2026-05-03T00:00:00.000Z', { category: 'work', importance: 7, origin: 'explicit' });
    expect(matchesFilters(m, { category: 'work', importanceMin: 7, dayFrom: '2026-05-03', origin: 'explicit' })).toBe(true);
    expect(matchesFilters(m, { importanceMax: 6 })).toBe(false);
    expect(matchesFilters(m, { dayTo: '2026-05-02' })).toBe(false);
    expect(matchesFilters(m, { category: 'life' })).toBe(false);
  });
});
