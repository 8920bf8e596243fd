import { useEffect, useState } from 'react';
import type { DuplicateGroup } from '../../../shared/api';
import { getApi } from '../../api';
import { Dialog } from '../../components/Dialog';
import { errorInfo } from '../../lib/errors';
import { longDay, plural } from '../../lib/format';
import { notify } from '../../stores/toasts';

/**
 * Memories → Tidy up: the near-duplicates the persona already holds, biggest
 * group first. Merge keeps the chosen one and supersedes the others (history
 * kept, undoable from each one's row); "Not duplicates" is remembered.
 */
export function TidyUpDialog({ persona, onClose, onChanged }: { persona: string; onClose(): void; onChanged(): void }) {
  const [groups, setGroups] = useState<DuplicateGroup[] | null>(null);
  const [keep, setKeep] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    getApi()
      .invoke('memories.duplicates', { persona })
      .then((g) => live && setGroups(g))
      .catch((e) => live && setError(errorInfo(e).message));
    return () => {
      live = false;
    };
  }, [persona]);

  const keyOf = (g: DuplicateGroup) => g.memories.map((m) => m.id).join(',');

  async function act(g: DuplicateGroup, merge: boolean) {
    setBusy(true);
    setError(null);
    try {
      const kept = keep[keyOf(g)] ?? g.keep;
      if (merge) {
        await getApi().invoke('memories.merge', { keep: kept, others: g.memories.map((m) => m.id).filter((id) => id !== kept) });
        notify(`Merged ${plural(g.memories.length, 'memory', 'memories')} into one; the others are kept as history.`);
      } else {
        await getApi().invoke('memories.notDuplicates', { ids: g.memories.map((m) => m.id) });
      }
      setGroups((gs) => (gs ?? []).filter((x) => x !== g));
      onChanged();
    } catch (e) {
      setError(errorInfo(e).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title="Tidy up" testId="tidy-up-dialog" onClose={onClose}>
      {error && (
        <p className="error" role="alert" data-testid="tidy-error">
          {error}
        </p>
      )}
      {!groups && !error && <p className="muted">Looking for memories that say the same thing…</p>}
      {groups && (
        <p className="muted" data-testid="tidy-summary">
          {groups.length ? `${plural(groups.length, 'group')} of memories that say the same thing.` : 'No duplicates found.'}
        </p>
      )}
      <div className="tidy-groups">
        {groups?.map((g) => {
          const k = keyOf(g);
          return (
            <TidyGroup
              key={k}
              group={g}
              kept={keep[k] ?? g.keep}
              busy={busy}
              onKeep={(id) => setKeep((s) => ({ ...s, [k]: id }))}
              onAct={(merge) => void act(g, merge)}
            />
          );
        })}
      </div>
      <div className="dialog-actions">
        <button className="ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

/** One group of near-duplicates: which one to keep, then Merge or Not duplicates. */
function TidyGroup(props: { group: DuplicateGroup; kept: string; busy: boolean; onKeep(id: string): void; onAct(merge: boolean): void }) {
  const { group: g, kept, busy, onKeep, onAct } = props;
  const k = g.memories.map((m) => m.id).join(',');
  return (
    <div className="tidy-group" data-testid="tidy-group">
      <ul>
        {g.memories.map((m) => (
          <li key={m.id}>
            <label>
              <input type="radio" name={`keep-${k}`} checked={kept === m.id} data-testid="tidy-keep" onChange={() => onKeep(m.id)} />
              <span className="tidy-text">
                <span>{m.content}</span>
                <span className="muted small">
                  {longDay(m.day)} · imp {m.importance}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div className="tidy-actions">
        <button className="primary small" data-testid="tidy-merge" disabled={busy} onClick={() => onAct(true)}>
          Merge, keep the chosen one
        </button>
        <button className="ghost small" data-testid="tidy-not-duplicates" disabled={busy} onClick={() => onAct(false)}>
          Not duplicates
        </button>
      </div>
    </div>
  );
}
