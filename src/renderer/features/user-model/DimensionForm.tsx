import { useId, useState, type FormEvent } from 'react';
import { editorKeys } from '../../lib/keys';
import { SUGGESTED_DIMENSIONS } from './store';
import { SCALE_MAX, SCALE_MIN } from '../../../shared/contract/limits';

interface Props {
  dimension?: string;
  content?: string;
  confidence?: number;
  existing: string[];
  onSave(dimension: string, content: string, confidence: number): Promise<boolean>;
  onCancel(): void;
}

/** Add a dimension, or edit one (its name is then fixed: the row is keyed by it). */
export function DimensionForm(p: Props) {
  const [dimension, setDimension] = useState(p.dimension ?? '');
  const [content, setContent] = useState(p.content ?? '');
  const [confidence, setConfidence] = useState(p.confidence ?? 5);
  const [saving, setSaving] = useState(false);
  const listId = useId();
  const editing = p.dimension !== undefined;
  const clash = !editing && p.existing.includes(dimension.trim());

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!dimension.trim() || !content.trim() || saving) return;
    setSaving(true);
    if (!(await p.onSave(dimension.trim(), content.trim(), confidence))) setSaving(false);
  }

  return (
    <form className="dimension-form" data-testid="dimension-form" onSubmit={submit} onKeyDown={editorKeys(p.onCancel, () => void submit())}>
      <div className="editor-fields">
        <label>
          Dimension
          <input
            data-testid="dimension-name-input"
            list={listId}
            value={dimension}
            disabled={editing}
            autoFocus={!editing}
            placeholder="e.g. preferences"
            onChange={(e) => setDimension(e.target.value)}
          />
          <datalist id={listId}>
            {SUGGESTED_DIMENSIONS.filter((d) => !p.existing.includes(d)).map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
        </label>
        <label>
          Confidence
          <input
            data-testid="dimension-confidence-input"
            type="number"
            min={SCALE_MIN}
            max={SCALE_MAX}
            value={confidence}
            onChange={(e) => setConfidence(Math.min(10, Math.max(1, Number(e.target.value) || 1)))}
          />
        </label>
      </div>
      <textarea
        data-testid="dimension-content-input"
        aria-label="Dimension content"
        rows={3}
        autoFocus={editing}
        value={content}
        placeholder="A stable fact about the user, e.g. “Prefers short answers with code first.”"
        onChange={(e) => setContent(e.target.value)}
      />
      <p className="hint">Ctrl+Enter saves · Esc cancels</p>
      {clash && <p className="hint warn">“{dimension.trim()}” exists already: saving replaces it.</p>}
      <div className="editor-actions">
        <button type="button" className="ghost" onClick={p.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="dimension-save" disabled={!dimension.trim() || !content.trim() || saving}>
          {editing ? 'Save' : 'Add dimension'}
        </button>
      </div>
    </form>
  );
}
