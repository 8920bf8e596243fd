import { useCallback, useEffect, useState } from 'react';
import type { TrashItem, TrashKind } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { getApi } from '../../api';
import { plural, shortTime } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { notify, reportError } from '../../stores/toasts';

const KIND_LABELS: Record<TrashKind, string> = { memory: 'memory', user_model: 'user model', knowledge_source: 'document' };

/** Reloads (debounced) when anything may have gone into or out of the trash. */
function useTrashEvents(fn: () => void): void {
  useEffect(() => {
    let t: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (t) clearTimeout(t);
      t = setTimeout(fn, 200);
    };
    const offs = [getApi().on('trash.changed', later), getApi().on('personas.changed', later)];
    return () => {
      if (t) clearTimeout(t);
      offs.forEach((off) => off());
    };
  }, [fn]);
}

/** What was deleted in this persona, when it goes for good, and a way back (docs/trash.md). */
export function TrashView() {
  const persona = usePersonas((s) => s.activeId);
  const [items, setItems] = useState<TrashItem[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setItems(await getApi().invoke('trash.list', { persona }));
      setLoaded(true);
    } catch (e) {
      reportError(e, 'Could not load the trash');
    }
  }, [persona]);

  useEffect(() => void load(), [load]);
  useTrashEvents(useCallback(() => void load(), [load]));

  async function restore(item: TrashItem) {
    setBusy(item.id);
    try {
      await getApi().invoke('trash.restore', { id: item.id });
      notify(`Restored “${item.what.length > 60 ? `${item.what.slice(0, 60)}…` : item.what}”.`);
      await load();
    } catch (e) {
      reportError(e, 'Could not restore it');
    } finally {
      setBusy(null);
    }
  }

  async function empty() {
    setBusy('empty');
    try {
      const { emptied } = await getApi().invoke('trash.empty', { persona, confirm: true });
      notify(`Emptied the trash: ${plural(emptied, 'item')} removed for good.`);
      setConfirming(false);
      await load();
    } catch (e) {
      reportError(e, 'Could not empty the trash');
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="view trash-view" data-testid="trash-view">
      <header className="view-header">
        <div>
          <h1>Trash</h1>
          <p className="muted">Deleted memories, user-model dimensions and documents stay here, whole, until they are purged; restore puts one back as it was.</p>
        </div>
        {items.length > 0 && (
          <button className="danger" data-testid="trash-empty" onClick={() => setConfirming(true)}>
            Empty trash…
          </button>
        )}
      </header>
      {loaded && items.length === 0 ? (
        <div className="empty" data-testid="trash-nothing">
          <h2>The trash is empty</h2>
          <p>What you or the assistant delete comes here first.</p>
        </div>
      ) : (
        <ol className="activity-list" data-testid="trash-list">
          {items.map((i) => (
            <TrashRow key={i.id} item={i} busy={busy !== null} onRestore={() => void restore(i)} />
          ))}
        </ol>
      )}
      {confirming && <EmptyTrashDialog count={items.length} busy={busy !== null} onCancel={() => setConfirming(false)} onEmpty={() => void empty()} />}
    </section>
  );
}

/** One deleted item: what it was, when it goes for good, and Restore. */
function TrashRow({ item: i, busy, onRestore }: { item: TrashItem; busy: boolean; onRestore(): void }) {
  return (
    <li className="activity-item" data-testid="trash-item" data-kind={i.kind} data-key={i.key}>
      <span className="chip">{KIND_LABELS[i.kind]}</span>
      <span className="activity-what" dir="auto" data-testid="trash-what">
        {i.what}
      </span>
      <span className="muted small" data-testid="trash-when">
        deleted {shortTime(i.deletedAt)}, removed for good {shortTime(i.purgeAt)}
      </span>
      <button className="ghost small" data-testid="trash-restore" disabled={busy} onClick={onRestore}>
        Restore
      </button>
    </li>
  );
}

/** Emptying the trash asks first, saying how many items go for good and where a copy may still be. */
function EmptyTrashDialog({ count, busy, onCancel, onEmpty }: { count: number; busy: boolean; onCancel(): void; onEmpty(): void }) {
  return (
    <Dialog title="Empty the trash?" testId="trash-empty-dialog" onClose={() => !busy && onCancel()}>
      <p>
        {plural(count, 'item')} will be removed for good. A backup taken before now still holds them (Settings → Data).
      </p>
      <div className="dialog-actions">
        <button className="ghost" data-autofocus onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button className="danger-solid" data-testid="trash-empty-confirm" disabled={busy} onClick={onEmpty}>
          Empty trash
        </button>
      </div>
    </Dialog>
  );
}
