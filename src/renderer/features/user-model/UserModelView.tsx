import { useEffect, useState } from 'react';
import type { UserModelEntry } from '../../../shared/api';
import { shortTime } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { DimensionHistory } from '../history/DimensionHistory';
import { DimensionForm } from './DimensionForm';
import { useUserModel } from './store';

/** The persona's stable facts, editable, next to the exact block the model sees. */
export function UserModelView() {
  const persona = usePersonas((s) => s.activeId);
  const { entries, block, loaded, upsert, remove } = useUserModel();
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    useUserModel.getState().open(persona);
    setEditing(null);
    setAdding(false);
  }, [persona]);

  const names = entries.map((e) => e.dimension);

  return (
    <section className="view user-model-view" data-testid="user-model-view">
      <header className="view-header">
        <div>
          <h1>User model</h1>
          <p className="muted">Stable facts about you, injected whole into every prompt of this persona.</p>
        </div>
        <button className="primary" data-testid="dimension-add" onClick={() => setAdding(true)}>
          Add dimension
        </button>
      </header>
      <div className="split">
        <div className="split-main">
          {adding && (
            <div className="card">
              <DimensionForm
                existing={names}
                onCancel={() => setAdding(false)}
                onSave={async (d, c, conf) => {
                  const ok = await upsert(d, c, conf);
                  if (ok) setAdding(false);
                  return ok;
                }}
              />
            </div>
          )}
          {loaded && entries.length === 0 && !adding && (
            <div className="empty" data-testid="user-model-empty">
              <h2>No dimensions yet</h2>
              <p>
                The assistant fills these in as it learns about you. Add one yourself — try <code>preferences</code> or <code>goals</code>.
              </p>
            </div>
          )}
          {entries.map((e) => (
            <article className="card dimension" key={e.id} data-testid="dimension-row" data-dimension={e.dimension}>
              {editing === e.dimension ? (
                <DimensionForm
                  dimension={e.dimension}
                  content={e.content}
                  confidence={e.confidence}
                  existing={names}
                  onCancel={() => setEditing(null)}
                  onSave={async (d, c, conf) => {
                    const ok = await upsert(d, c, conf);
                    if (ok) setEditing(null);
                    return ok;
                  }}
                />
              ) : (
                <DimensionCard entry={e} onEdit={() => setEditing(e.dimension)} onRemove={() => void remove(e.dimension)} />
              )}
            </article>
          ))}
        </div>
        <aside className="split-side">
          <h2 className="side-title">What the model sees</h2>
          <pre className="prompt-preview" data-testid="user-model-preview">
            {block || '(empty: no user-model block is added to the prompt)'}
          </pre>
        </aside>
      </div>
    </section>
  );
}

/** One dimension read: its name, confidence and text, Edit and Remove, and its history. */
function DimensionCard({ entry: e, onEdit, onRemove }: { entry: UserModelEntry; onEdit(): void; onRemove(): void }) {
  return (
    <>
      <div className="dimension-head">
        {/* h2: the view's h1 is the only heading above it (headings in order). */}
        <h2 data-testid="dimension-name">{e.dimension}</h2>
        <span className="badge" data-testid="dimension-confidence" title="Confidence (1–10)">
          conf {e.confidence}
        </span>
        <span className="muted small">updated {shortTime(e.updatedAt)}</span>
        <span className="spacer" />
        <button className="ghost small" data-testid="dimension-edit" onClick={onEdit}>
          Edit
        </button>
        <button className="ghost small danger" data-testid="dimension-remove" onClick={onRemove}>
          Remove
        </button>
      </div>
      <p className="dimension-content" data-testid="dimension-content">
        {e.content}
      </p>
      <DimensionHistory persona={e.persona} dimension={e.dimension} onRestored={() => void useUserModel.getState().reload()} />
    </>
  );
}
