import type { Memory } from '../../../shared/api';
import { useMemories } from './store';

const short = (id: string) => id.slice(0, 8);

/** "Superseded by …" on an old memory (click: the newer one) with a one-click undo; "supersedes …" on a newer one. */
export function Supersession({ memory }: { memory: Memory }) {
  const { focus, unsupersede } = useMemories.getState();
  const supersedes = memory.supersedes ?? [];
  if (!memory.supersededBy && !supersedes.length) return null;
  return (
    <div className="supersession">
      {memory.supersededBy && (
        <>
          <button className="link" data-testid="superseded-by" onClick={() => void focus(memory.supersededBy!)}>
            superseded by {short(memory.supersededBy)}…
          </button>
          <button className="ghost small" data-testid="memory-unsupersede" onClick={() => void unsupersede(memory.id)}>
            Undo supersession
          </button>
        </>
      )}
      {supersedes.map((id) => (
        <button key={id} className="link" data-testid="supersedes" onClick={() => void focus(id)}>
          supersedes {short(id)}…
        </button>
      ))}
    </div>
  );
}
