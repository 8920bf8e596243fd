import type { Memory } from '../../../shared/api';
import { useMemories } from './store';

/** The other memory named by its words (no ids on screen); when it is not loaded, by what it is. */
function useLabel(id: string, fallback: string): string {
  const content = useMemories((s) => s.items.find((m) => m.id === id)?.content);
  if (!content) return fallback;
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `“${flat.slice(0, 57).trimEnd()}…”` : `“${flat}”`;
}

function Link({ id, testId, lead, fallback }: { id: string; testId: string; lead: string; fallback: string }) {
  const label = useLabel(id, fallback);
  return (
    <button className="link" data-testid={testId} dir="auto" onClick={() => void useMemories.getState().focus(id)}>
      {lead} {label}
    </button>
  );
}

/** "Superseded by …" on an old memory (click: the newer one) with a one-click undo; "supersedes …" on a newer one. */
export function Supersession({ memory }: { memory: Memory }) {
  const { unsupersede } = useMemories.getState();
  const supersedes = memory.supersedes ?? [];
  if (!memory.supersededBy && !supersedes.length) return null;
  return (
    <div className="supersession">
      {memory.supersededBy && (
        <>
          <Link id={memory.supersededBy} testId="superseded-by" lead="superseded by" fallback="a newer memory" />
          <button className="ghost small" data-testid="memory-unsupersede" onClick={() => void unsupersede(memory.id)}>
            Undo supersession
          </button>
        </>
      )}
      {supersedes.map((id) => (
        <Link key={id} id={id} testId="supersedes" lead="supersedes" fallback="an earlier memory" />
      ))}
    </div>
  );
}
