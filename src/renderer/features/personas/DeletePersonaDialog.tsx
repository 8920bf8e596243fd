import { useState } from 'react';
import type { Persona } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { plural } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { notify } from '../../stores/toasts';

/** Deleting needs the persona's name typed out; `main` can only be emptied. */
export function DeletePersonaDialog({ persona, onClose }: { persona: Persona; onClose(): void }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const isMain = persona.id === 'main';
  const c = persona.counts;
  const matches = typed === persona.name;

  async function confirm() {
    if (!matches || busy) return;
    setBusy(true);
    const deleted = await usePersonas.getState().remove(persona.id, typed);
    setBusy(false);
    if (deleted) {
      notify(isMain ? `Emptied “${persona.name}”: ${plural(deleted.memories, 'memory', 'memories')} removed.` : `Deleted “${persona.name}”.`);
      onClose();
    }
  }

  return (
    <Dialog title={isMain ? `Empty “${persona.name}”?` : `Delete “${persona.name}”?`} testId="delete-persona-dialog" onClose={onClose}>
      <p>This removes, for good:</p>
      <ul className="delete-counts" data-testid="delete-counts">
        <li>{plural(c.memories, 'memory', 'memories')}</li>
        <li>{plural(c.userModel, 'user-model dimension')}</li>
        <li>
          {plural(c.knowledgeSources, 'knowledge source')} ({plural(c.knowledgeChunks, 'chunk')})
        </li>
        <li>{plural(c.messages, 'chat message')} and the conversation summary</li>
        <li>its pending background jobs</li>
      </ul>
      {isMain && (
        <p className="hint" data-testid="main-note">
          “{persona.name}” is the default persona: it can be emptied but not removed.
        </p>
      )}
      <label>
        <span>
          Type <strong>{persona.name}</strong> to confirm
        </span>
        <input data-testid="delete-confirm-input" value={typed} data-autofocus onChange={(e) => setTyped(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void confirm()} />
      </label>
      <div className="dialog-actions">
        <button className="ghost" onClick={onClose}>
          Cancel
        </button>
        <button className="danger-solid" data-testid="delete-confirm" disabled={!matches || busy} onClick={() => void confirm()}>
          {isMain ? 'Empty persona' : 'Delete persona'}
        </button>
      </div>
    </Dialog>
  );
}
