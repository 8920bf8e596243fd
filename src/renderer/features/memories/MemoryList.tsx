import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { longDay, plural } from '../../lib/format';
import { toRows } from './order';
import { MemoryRow } from './MemoryRow';
import { useMemories } from './store';

// Pages are fetched when the last rendered row gets this close to the end.
const PREFETCH_ROWS = 40;

/** The timeline: virtualised, so only the rows on screen exist in the DOM even at 100k memories. */
export function MemoryList() {
  const items = useMemories((s) => s.items);
  const nextCursor = useMemories((s) => s.nextCursor);
  const loading = useMemories((s) => s.loading);
  const rows = useMemo(() => toRows(items), [items]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = rows.length + (nextCursor ? 1 : 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'day' ? 40 : 76),
    getItemKey: (i) => {
      const r = rows[i];
      if (!r) return 'more';
      return r.kind === 'day' ? `day-${r.day}` : r.memory.id;
    },
    overscan: 8,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? 0;

  useEffect(() => {
    if (nextCursor && !loading && lastIndex >= rows.length - PREFETCH_ROWS) void useMemories.getState().loadMore();
  }, [lastIndex, rows.length, nextCursor, loading]);

  return (
    <div className="memory-scroll" ref={scrollRef} data-testid="memory-list">
      <div className="virtual-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualItems.map((v) => {
          const row = rows[v.index];
          return (
            <div
              key={v.key}
              data-index={v.index}
              ref={virtualizer.measureElement}
              className="virtual-row"
              style={{ transform: `translateY(${v.start}px)` }}
            >
              {!row ? (
                <div className="list-more" data-testid="memory-list-more">
                  Loading more…
                </div>
              ) : row.kind === 'day' ? (
                <div className="day-header" data-testid="day-header" data-day={row.day}>
                  <span>{longDay(row.day)}</span>
                  <span className="muted">{plural(row.count, 'memory', 'memories')}</span>
                </div>
              ) : (
                <MemoryRow memory={row.memory} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
