import { useEffect, useRef, useState } from 'react';
import { plural } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { ImportMemoriesDialog } from './ImportMemoriesDialog';
import { MemoryEditor } from './MemoryEditor';
import { TidyUpDialog } from './TidyUpDialog';
import { MemoryFiltersBar } from './MemoryFiltersBar';
import { MemoryList } from './MemoryList';
import { MemoryRow } from './MemoryRow';
import { hasFilters } from './order';
import { SearchResults } from './SearchResults';
import { useMemories } from './store';

function SearchBox() {
  const query = useMemories((s) => s.query);
  const focusSearch = useMemories((s) => s.focusSearch);
  const searching = useMemories((s) => s.searching);
  const [text, setText] = useState(query);
  const ref = useRef<HTMLInputElement>(null);

  useEffect(() => setText(query), [query]);
  useEffect(() => {
    if (focusSearch) ref.current?.focus();
  }, [focusSearch]);
  // Search as the user pauses typing; Enter searches at once.
  useEffect(() => {
    if (text === query) return;
    const t = setTimeout(() => void useMemories.getState().search(text), 300);
    return () => clearTimeout(t);
  }, [text, query]);

  return (
    <div className="search">
      <input
        ref={ref}
        type="search"
        data-testid="memory-search"
        placeholder="Search memories (/ or Ctrl+K)"
        aria-label="Search memories"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void useMemories.getState().search(text);
          if (e.key === 'Escape') {
            setText('');
            useMemories.getState().clearSearch();
            e.currentTarget.blur();
          }
        }}
      />
      {searching && <span className="spinner" aria-label="Searching" />}
    </div>
  );
}

function EmptyMemories() {
  const filters = useMemories((s) => s.filters);
  if (hasFilters(filters)) {
    return (
      <div className="empty" data-testid="memories-empty">
        <h2>No memory matches these filters</h2>
        <p>Widen the importance or day range, or clear the filters.</p>
        <button className="ghost" onClick={() => useMemories.getState().setFilters({})}>
          Clear filters
        </button>
      </div>
    );
  }
  return (
    <div className="empty" data-testid="memories-empty">
      <h2>No memories yet</h2>
      <p>
        The assistant saves events and facts here as you chat. Add one yourself with <kbd>n</kbd> or the “New memory” button.
      </p>
      <button className="primary" onClick={() => useMemories.getState().setComposing(true)}>
        New memory
      </button>
    </div>
  );
}

/** The memory browser: timeline, search with score breakdown, filters, create/edit/delete. */
export function MemoriesView() {
  const persona = usePersonas((s) => s.activeId);
  const { items, total, loaded, hits, composing, categories, focused, matchTotal, matchTotalIsLowerBound } = useMemories();
  const { open, setComposing, create, focus, updateThat, replaceThat } = useMemories.getState();

  const [importing, setImporting] = useState(false);
  const [tidying, setTidying] = useState(false);

  useEffect(() => open(persona), [persona, open]);

  return (
    <section className="view memories-view" data-testid="memories-view">
      <header className="view-header">
        <div>
          <h1>Memories</h1>
          <p className="muted" data-testid="memory-count">
            {hits
              ? matchTotal === 0 && hits.some((h) => h.score.cosine !== null)
                ? 'closest in meaning'
                : `${plural(matchTotal, 'match', 'matches')}${matchTotalIsLowerBound ? ' or more' : ''}`
              : loaded ? `${plural(total, 'memory', 'memories')}${items.length < total ? ` · ${items.length.toLocaleString()} loaded` : ''}` : 'Loading…'}
          </p>
        </div>
        <SearchBox />
        <button className="ghost" data-testid="memory-import" onClick={() => setImporting(true)} title="Import memories from another assistant">
          Import…
        </button>
        <button className="ghost" data-testid="memory-tidy" onClick={() => setTidying(true)} title="Find and merge memories that say the same thing">
          Tidy up…
        </button>
        <button className="primary" data-testid="memory-new" onClick={() => setComposing(true)} title="New memory (n)">
          New memory
        </button>
      </header>
      {importing && <ImportMemoriesDialog persona={persona} onClose={() => setImporting(false)} />}
      {tidying && <TidyUpDialog persona={persona} onClose={() => setTidying(false)} onChanged={() => void useMemories.getState().reload()} />}
      <MemoryFiltersBar />
      {composing && (
        <div className="composer">
          <MemoryEditor
            categories={categories}
            onSave={create}
            onCancel={() => setComposing(false)}
            similarIn={persona ?? undefined}
            onUpdateThat={updateThat}
            onReplaceThat={replaceThat}
          />
        </div>
      )}
      {focused && (
        <div className="focused-memory" data-testid="focused-memory">
          <div className="focused-head">
            <span className="muted small">Linked memory</span>
            <button className="ghost small" data-testid="focused-close" onClick={() => void focus(null)}>
              Close
            </button>
          </div>
          <MemoryRow memory={focused} />
        </div>
      )}
      {hits ? <SearchResults /> : loaded && items.length === 0 ? !composing && <EmptyMemories /> : <MemoryList />}
    </section>
  );
}
