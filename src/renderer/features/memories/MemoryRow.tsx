import { useEffect, useRef } from 'react';
import type { Memory } from '../../../shared/api';
import { longDay, today } from '../../lib/format';
import { EmbeddingBadge } from './EmbeddingBadge';
import { MemoryHistory } from '../history/MemoryHistory';
import { MemoryEditor } from './MemoryEditor';
import { useMemories } from './store';
import { Supersession } from './Supersession';
import { LongText } from './LongText';

/** One memory in the browser: read mode with actions, or the inline editor. */
export function MemoryRow({ memory }: { memory: Memory }) {
  const editing = useMemories((s) => s.editingId === memory.id);
  const categories = useMemories((s) => s.categories);
  const replacing = useMemories((s) => s.replacingId === memory.id);
  const highlighted = useMemories((s) => s.highlightId === memory.id);
  const row = useRef<HTMLDivElement>(null);
  // Opened from a chat chip: brought into view once drawn.
  useEffect(() => {
    if (highlighted) row.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  const { setEditing, remove, setReplacing, placeRestored } = useMemories.getState();

  if (editing) return <RowEditor memory={memory} categories={categories} />;

  const superseded = Boolean(memory.supersededBy);
  return (
    <div
      ref={row}
      className={`memory-row${superseded ? ' superseded' : ''}${highlighted ? ' highlighted' : ''}`}
      data-testid="memory-row"
      data-memory-id={memory.id}
      data-superseded={superseded}
      data-highlighted={highlighted || undefined}
    >
      <div className={`importance imp-${memory.importance >= 8 ? 'high' : memory.importance >= 5 ? 'mid' : 'low'}`} title="Importance (1–10)">
        {memory.importance}
      </div>
      <div className="memory-body">
        <LongText text={memory.content} onDoubleClick={() => setEditing(memory.id)} />
        <div className="memory-meta">
          {memory.category ? (
            <span className="chip" data-testid="memory-category">
              {memory.category}
            </span>
          ) : (
            <span className="chip muted">uncategorised</span>
          )}
          <time className="meta-item" data-testid="memory-day" dateTime={memory.day}>
            {longDay(memory.day)}
          </time>
          <span className="meta-item">{memory.origin}</span>
          <EmbeddingBadge memory={memory} />
        </div>
        <Supersession memory={memory} />
        {replacing && <ReplaceEditor memory={memory} categories={categories} />}
        <MemoryHistory memory={memory} onRestored={placeRestored} />
      </div>
      <div className="row-actions">
        <button className="ghost small" data-testid="memory-edit" onClick={() => setEditing(memory.id)}>
          Edit
        </button>
        {!superseded && (
          <button className="ghost small" data-testid="memory-replace" title="This is no longer true: write the newer fact" onClick={() => setReplacing(memory.id)}>
            Replace…
          </button>
        )}
        <button className="ghost small danger" data-testid="memory-delete" onClick={() => void remove(memory)}>
          Delete
        </button>
      </div>
    </div>
  );
}

/** The row edited in place; only the fields that changed are sent, and nothing when none did. */
function RowEditor({ memory, categories }: { memory: Memory; categories: string[] }) {
  const { setEditing, update } = useMemories.getState();
  return (
    <div className="memory-row editing" data-testid="memory-row" data-memory-id={memory.id}>
      <MemoryEditor
        initial={memory}
        categories={categories}
        onCancel={() => setEditing(null)}
        onSave={(d) => {
          const patch: Parameters<typeof update>[1] = {};
          if (d.content !== memory.content) patch.content = d.content;
          if (d.category !== memory.category) patch.category = d.category;
          if (d.importance !== memory.importance) patch.importance = d.importance;
          if (d.day !== memory.day) patch.day = d.day;
          if (Object.keys(patch).length === 0) {
            setEditing(null);
            return Promise.resolve(true);
          }
          return update(memory.id, patch);
        }}
      />
    </div>
  );
}

/** "Replace…": the newer fact written under the row; the old memory stays, marked as superseded. */
function ReplaceEditor({ memory, categories }: { memory: Memory; categories: string[] }) {
  const { setReplacing, replace } = useMemories.getState();
  return (
    <div className="replace-editor" data-testid="memory-replace-editor">
      <p className="hint">Write what is true now. The old memory stays, marked as superseded.</p>
      <MemoryEditor
        // The newer fact is true from today unless the person picks its day (the old one keeps its own).
        initial={{ ...memory, content: memory.content, day: today() }}
        categories={categories}
        submitLabel="Save as newer fact"
        onCancel={() => setReplacing(null)}
        onSave={(d) => replace(memory, d)}
      />
    </div>
  );
}
