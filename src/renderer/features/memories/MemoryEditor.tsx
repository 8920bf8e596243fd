import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Memory } from '../../../shared/api';
import { today } from '../../lib/format';
import type { MemoryDraft } from './store';

interface Props {
  initial?: Memory;
  categories: string[];
  onSave(draft: MemoryDraft): Promise<boolean>;
  onCancel(): void;
  /** The save button's text when it is not the usual one. */
  submitLabel?: string;
}

/** The form for a new memory and for editing one in place. */
export function MemoryEditor({ initial, categories, onSave, onCancel, submitLabel }: Props) {
  const [content, setContent] = useState(initial?.content ?? '');
  const [category, setCategory] = useState(initial?.category ?? '');
  const [importance, setImportance] = useState(initial?.importance ?? 5);
  const [day, setDay] = useState(initial?.day ?? today());
  const [saving, setSaving] = useState(false);
  const listId = useId();

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!content.trim() || saving) return;
    setSaving(true);
    const ok = await onSave({ content: content.trim(), category: category.trim() || null, importance, day });
    if (!ok) setSaving(false);
  }

  function onKey(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void submit();
    }
  }

  return (
    <form className="memory-editor" data-testid="memory-editor" onSubmit={submit} onKeyDown={onKey}>
      <textarea
        data-testid="memory-content-input"
        aria-label="Memory content"
        placeholder="What should the assistant remember? e.g. “Moved to Lyon for the new job on 3 March.”"
        value={content}
        autoFocus
        rows={3}
        onChange={(e) => setContent(e.target.value)}
      />
      <div className="editor-fields">
        <label>
          Category
          <input
            data-testid="memory-category-input"
            list={listId}
            value={category}
            maxLength={64}
            placeholder="e.g. work"
            onChange={(e) => setCategory(e.target.value)}
          />
          <datalist id={listId}>
            {categories.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </label>
        <label>
          Importance
          <input
            data-testid="memory-importance-input"
            type="number"
            min={1}
            max={10}
            value={importance}
            onChange={(e) => setImportance(Math.min(10, Math.max(1, Number(e.target.value) || 1)))}
          />
        </label>
        <label>
          Day
          <input data-testid="memory-day-input" type="date" value={day} required onChange={(e) => setDay(e.target.value)} />
        </label>
        <div className="editor-actions">
          <button type="button" className="ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="primary" data-testid="memory-save" disabled={!content.trim() || saving}>
            {submitLabel ?? (initial ? 'Save changes' : 'Add memory')}
          </button>
        </div>
      </div>
      <p className="hint">Ctrl+Enter saves · Esc cancels</p>
    </form>
  );
}
