import { useCallback, useEffect, useState } from 'react';
import type { ActivityItem, TrashItem } from '../../../shared/api';
import type { ActorKind } from '../../../shared/actor';
import { getApi } from '../../api';
import { shortTime } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { notify, reportError } from '../../stores/toasts';
import { useLiveEvent } from './live-event';
import { describeChange } from './describe';

const ACTOR_FILTERS: { value: ActorKind | ''; label: string }[] = [
  { value: '', label: 'Everyone' },
  { value: 'user', label: 'You' },
  { value: 'tool', label: 'The chat' },
  { value: 'review', label: 'Periodic review' },
  { value: 'flush', label: 'Pre-compaction flush' },
  { value: 'import', label: 'Imports' },
  { value: 'mcp', label: 'Other AI tools (MCP)' },
];

const PAGE = 100;

function what(i: ActivityItem): string {
  if (i.kind === 'memory') return i.content;
  return i.content === null ? `“${i.dimension}” removed` : `${i.dimension}: ${i.content}`;
}

/** The trash item a "deleted" row can bring back: only the newest deletion of each item, while it is in the trash. */
function restorable(items: ActivityItem[], trash: TrashItem[]): Map<ActivityItem, TrashItem> {
  const byKey = new Map(trash.map((t) => [`${t.kind}:${t.key}`, t]));
  const out = new Map<ActivityItem, TrashItem>();
  const seen = new Set<string>();
  for (const i of items) {
    const key = i.kind === 'memory' ? `memory:${i.memoryId}` : `user_model:${i.dimension}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const t = byKey.get(key);
    if (i.change === 'delete' && t) out.set(i, t);
  }
  return out;
}

/** What changed in this persona lately, by whom: the assistant's writes, edits and supersessions at a glance. */
export function ActivityView() {
  const persona = usePersonas((s) => s.activeId);
  const [actorKind, setActorKind] = useState<ActorKind | ''>('');
  const [kind, setKind] = useState<KindFilter>('');
  const [items, setItems] = useState<ActivityItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [trash, setTrash] = useState<TrashItem[]>([]);

  const load = useCallback(
    async (before: string | null) => {
      try {
        const page = await getApi().invoke('activity.list', {
          persona,
          limit: PAGE,
          before,
          ...(actorKind ? { actorKind } : {}),
          ...(kind ? { kind } : {}),
        });
        setItems((prev) => (before ? [...prev, ...page.items] : page.items));
        setTrash(await getApi().invoke('trash.list', { persona }));
        setCursor(page.nextCursor);
        setLoaded(true);
      } catch (e) {
        reportError(e, 'Could not load the activity');
      }
    },
    [persona, actorKind, kind],
  );

  useEffect(() => void load(null), [load]);
  useLiveEvent(() => void load(null));
  const canRestore = restorable(items, trash);

  async function restore(t: TrashItem) {
    try {
      await getApi().invoke('trash.restore', { id: t.id });
      notify('Restored from the trash.');
      await load(null);
    } catch (e) {
      reportError(e, 'Could not restore it');
    }
  }

  return (
    <section className="view activity-view" data-testid="activity-view">
      <header className="view-header">
        <div>
          <h1>Activity</h1>
          <p className="muted">Every change to this persona’s memories and user model, newest first: who made it and when.</p>
        </div>
      </header>
      <ActivityFilters actorKind={actorKind} kind={kind} onActor={setActorKind} onKind={setKind} />
      {loaded && items.length === 0 ? (
        <div className="empty" data-testid="activity-empty">
          <h2>Nothing yet</h2>
          <p>Changes appear here as you, the assistant or a connected tool write to this persona.</p>
        </div>
      ) : (
        <ol className="activity-list" data-testid="activity-list">
          {items.map((i) => (
            <ActivityRow key={`${i.kind}:${i.id}`} item={i} trashed={canRestore.get(i)} onRestore={(t) => void restore(t)} />
          ))}
        </ol>
      )}
      {cursor && (
        <button className="ghost" data-testid="activity-more" onClick={() => void load(cursor)}>
          Show older changes
        </button>
      )}
    </section>
  );
}

type KindFilter = '' | 'memory' | 'userModel';

/** Who made the change and to what: each choice reloads the list from the newest. */
function ActivityFilters(props: { actorKind: ActorKind | ''; kind: KindFilter; onActor(v: ActorKind | ''): void; onKind(v: KindFilter): void }) {
  const { actorKind, kind, onActor, onKind } = props;
  return (
    <div className="filters">
      <label>
        Who
        <select data-testid="activity-actor" value={actorKind} onChange={(e) => onActor(e.target.value as ActorKind | '')}>
          {ACTOR_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        What
        <select data-testid="activity-kind" value={kind} onChange={(e) => onKind(e.target.value as KindFilter)}>
          <option value="">Memories and user model</option>
          <option value="memory">Memories</option>
          <option value="userModel">User model</option>
        </select>
      </label>
    </div>
  );
}

/** One change: when, to what, by whom; a deletion still in the trash can be restored from here. */
function ActivityRow({ item: i, trashed, onRestore }: { item: ActivityItem; trashed: TrashItem | undefined; onRestore(t: TrashItem): void }) {
  return (
    <li className="activity-item" data-testid="activity-item" data-actor={i.actor ?? ''}>
      <span className="muted small">{shortTime(i.validFrom)}</span>
      <span className="chip">{i.kind === 'memory' ? 'memory' : 'user model'}</span>
      <span data-testid="activity-change">{describeChange(i)}</span>
      <span className={`activity-what${i.kind === 'memory' && i.change === 'supersede' ? ' struck' : ''}`}>{what(i)}</span>
      {i.reason && <span className="muted small">({i.reason})</span>}
      {trashed && (
        <button className="ghost small" data-testid="activity-restore" onClick={() => onRestore(trashed)}>
          Restore
        </button>
      )}
    </li>
  );
}
