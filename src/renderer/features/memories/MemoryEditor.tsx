import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Memory } from '../../../shared/api';
import { getApi } from '../../api';
import { editorKeys } from '../../lib/keys';
import { longDay, today } from '../../lib/format';
import type { MemoryDraft } from './store';
import { CATEGORY_MAX, SCALE_MAX, SCALE_MIN } from '../../../shared/contract/limits';

interface Props {
  initial?: Memory;
  categories: string[];
  onSave(draft: MemoryDraft): Promise<boolean>;
  onCancel(): void;
  /** The save button's text when it is not the usual one. */
  submitLabel?: string;
  /**
   * A new memory of this persona: while the person types, a stored memory
   * saying the same is shown, with Save anyway / Update that one / Replace it
   * (docs/duplicates.md).
   */
  similarIn?: string;
  onUpdateThat?(that: Memory, draft: MemoryDraft): Promise<boolean>;
  onReplaceThat?(that: Memory, draft: MemoryDraft): Promise<boolean>;
}

/** Quiet time after the last keystroke before asking for a similar memory. */
const SIMILAR_DEBOUNCE_MS = 400;

/** The stored memory that says what is being typed, or null; asked after a pause in typing. */
function useSimilar(persona: string | undefined, content: string): Memory | null {
  const [similar, setSimilar] = useState<Memory | null>(null);
  useEffect(() => {
    const text = content.trim();
    if (!persona || text.length < 8) {
      setSimilar(null);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      getApi()
        .invoke('memories.similar', { persona, content: text })
        .then((r) => live && setSimilar(r?.memory ?? null))
        .catch(() => live && setSimilar(null));
    }, SIMILAR_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [persona, content]);
  return similar;
}

/** The near-duplicate warning under the text: the stored memory, and the three ways to go on (docs/duplicates.md). */
function SimilarWarning({ similar, saving, onUpdate, onReplace }: { similar: Memory; saving: boolean; onUpdate?: () => void; onReplace?: () => void }) {
  return (
    <div className="similar-memory" role="status" data-testid="similar-memory">
      <p>
        <strong>Similar to:</strong> <span data-testid="similar-content">{similar.content}</span>{' '}
        <span className="muted small">({longDay(similar.day)})</span>
      </p>
      <div className="similar-actions">
        <button type="submit" className="ghost small" data-testid="similar-save-anyway" disabled={saving}>
          Save anyway
        </button>
        {onUpdate && (
          <button type="button" className="ghost small" data-testid="similar-update" disabled={saving} onClick={onUpdate}>
            Update that one
          </button>
        )}
        {onReplace && (
          <button type="button" className="ghost small" data-testid="similar-replace" disabled={saving} onClick={onReplace}>
            Replace it
          </button>
        )}
      </div>
    </div>
  );
}

/** The editor's fields and its saving: one save at a time, the form kept open when a save fails. */
function useMemoryForm(initial: Memory | undefined, similarIn: string | undefined, onSave: Props['onSave']) {
  const [content, setContent] = useState(initial?.content ?? '');
  const [category, setCategory] = useState(initial?.category ?? '');
  const [importance, setImportance] = useState(initial?.importance ?? 5);
  const [day, setDay] = useState(initial?.day ?? today());
  const [saving, setSaving] = useState(false);
  const similar = useSimilar(similarIn, content);

  function draft(): MemoryDraft {
    return { content: content.trim(), category: category.trim() || null, importance, day };
  }

  async function onThat(run: ((that: Memory, d: MemoryDraft) => Promise<boolean>) | undefined) {
    if (!similar || !run || !content.trim() || saving) return;
    setSaving(true);
    if (!(await run(similar, draft()))) setSaving(false);
  }

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!content.trim() || saving) return;
    setSaving(true);
    const ok = await onSave(draft());
    if (!ok) setSaving(false);
  }

  return { content, setContent, category, setCategory, importance, setImportance, day, setDay, saving, similar, submit, onThat };
}

/** The form for a new memory and for editing one in place. */
export function MemoryEditor({ initial, categories, onSave, onCancel, submitLabel, similarIn, onUpdateThat, onReplaceThat }: Props) {
  const { content, setContent, category, setCategory, importance, setImportance, day, setDay, saving, similar, submit, onThat } = useMemoryForm(
    initial,
    similarIn,
    onSave,
  );
  const listId = useId();

  return (
    <form className="memory-editor" data-testid="memory-editor" onSubmit={submit} onKeyDown={editorKeys(onCancel, () => void submit())}>
      <textarea
        data-testid="memory-content-input"
        aria-label="Memory content"
        placeholder="What should the assistant remember? e.g. “Moved to Lyon for the new job on 3 March.”"
        value={content}
        autoFocus
        rows={3}
        onChange={(e) => setContent(e.target.value)}
      />
      {similar && (
        <SimilarWarning
          similar={similar}
          saving={saving}
          onUpdate={onUpdateThat && (() => void onThat(onUpdateThat))}
          onReplace={onReplaceThat && (() => void onThat(onReplaceThat))}
        />
      )}
      <div className="editor-fields">
        <label>
          Category
          <input
            data-testid="memory-category-input"
            list={listId}
            value={category}
            maxLength={CATEGORY_MAX}
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
            min={SCALE_MIN}
            max={SCALE_MAX}
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
