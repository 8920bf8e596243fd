import type { MemoryFilters, MemoryOrigin } from '../../../shared/api';
import { useMcpOrigins } from '../connections/useMcpOrigins';
import { hasFilters } from './order';
import { useMemories } from './store';
import { SCALE_MAX, SCALE_MIN } from '../../../shared/contract/limits';

const ORIGINS: MemoryOrigin[] = ['manual', 'explicit', 'review', 'flush', 'import'];

function num(v: string): number | undefined {
  return v === '' ? undefined : Math.min(10, Math.max(1, Number(v)));
}

/** Category, importance range, day range and origin; each change reloads the list from the top. */
export function MemoryFiltersBar() {
  const filters = useMemories((s) => s.filters);
  const categories = useMemories((s) => s.categories);
  const setFilters = useMemories((s) => s.setFilters);
  const mcpOrigins = useMcpOrigins();
  const patch = (p: Partial<MemoryFilters>) => {
    const next: MemoryFilters = { ...filters, ...p };
    for (const k of Object.keys(next) as (keyof MemoryFilters)[]) if (next[k] === undefined) delete next[k];
    setFilters(next);
  };

  return (
    <div className="filters" data-testid="memory-filters">
      <label>
        Category
        <select
          data-testid="filter-category"
          value={filters.category ?? ''}
          onChange={(e) => patch({ category: e.target.value || undefined })}
        >
          <option value="">All</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <ImportanceRange filters={filters} patch={patch} />
      <DayRange filters={filters} patch={patch} />
      <label>
        Origin
        <select
          data-testid="filter-origin"
          value={filters.origin ?? ''}
          onChange={(e) => patch({ origin: (e.target.value || undefined) as MemoryOrigin | undefined })}
        >
          <option value="">Any</option>
          {[...ORIGINS, ...mcpOrigins].map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      {hasFilters(filters) && (
        <button className="ghost small" data-testid="filter-clear" onClick={() => setFilters({})}>
          Clear filters
        </button>
      )}
    </div>
  );
}

type RangeProps = { filters: MemoryFilters; patch(p: Partial<MemoryFilters>): void };

/** Importance from–to (1–10); an empty box leaves that end open. */
function ImportanceRange({ filters, patch }: RangeProps) {
  return (
    <label>
      Importance
      <span className="range">
        <input
          data-testid="filter-importance-min"
          type="number"
          min={SCALE_MIN}
          max={SCALE_MAX}
          placeholder="1"
          aria-label="Minimum importance"
          value={filters.importanceMin ?? ''}
          onChange={(e) => patch({ importanceMin: num(e.target.value) })}
        />
        –
        <input
          data-testid="filter-importance-max"
          type="number"
          min={SCALE_MIN}
          max={SCALE_MAX}
          placeholder="10"
          aria-label="Maximum importance"
          value={filters.importanceMax ?? ''}
          onChange={(e) => patch({ importanceMax: num(e.target.value) })}
        />
      </span>
    </label>
  );
}

/** Days from–to; an empty box leaves that end open. */
function DayRange({ filters, patch }: RangeProps) {
  return (
    <label>
      Days
      <span className="range">
        <input
          data-testid="filter-day-from"
          type="date"
          aria-label="From day"
          value={filters.dayFrom ?? ''}
          onChange={(e) => patch({ dayFrom: e.target.value || undefined })}
        />
        –
        <input
          data-testid="filter-day-to"
          type="date"
          aria-label="To day"
          value={filters.dayTo ?? ''}
          onChange={(e) => patch({ dayTo: e.target.value || undefined })}
        />
      </span>
    </label>
  );
}
