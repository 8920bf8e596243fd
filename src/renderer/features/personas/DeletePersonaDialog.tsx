import { useState } from 'react';
import type { Persona } from '../../../shared/api';
import { confirmsName, graphemes, isEmoji } from '../../../shared/avatar';
import { useEvents } from '../../api/events';
import { Dialog } from '../../components/Dialog';
import { errorInfo } from '../../lib/errors';
import { plural } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { notify } from '../../stores/toasts';

type Step = 'idle' | 'backup' | 'delete';

/** The delete's steps as the core reports them (backup, then delete), and its failure, kept on screen. */
function useDeleteSteps(persona: Persona, onClose: () => void) {
  const [step, setStep] = useState<Step>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const isMain = persona.id === 'main';

  useEvents(
    () => ({
      'personas.deleting': (e) => {
        if (e.persona === persona.id) setStep((now) => (now === 'idle' ? now : e.stage));
      },
    }),
    [persona.id],
  );

  async function run(typed: string) {
    setFailure(null);
    setStep('backup');
    try {
      const deleted = await usePersonas.getState().remove(persona.id, typed);
      notify(isMain ? `Emptied “${persona.name}”: ${plural(deleted.memories, 'memory', 'memories')} removed.` : `Deleted “${persona.name}”.`);
      onClose();
    } catch (e) {
      setFailure(errorInfo(e).message);
      setStep('idle');
    }
  }

  return { step, busy: step !== 'idle', failure, run };
}

/** What goes with the persona, counted. */
function DeleteCounts({ counts: c }: { counts: Persona['counts'] }) {
  return (
    <ul className="delete-counts" data-testid="delete-counts">
      <li>{plural(c.memories, 'memory', 'memories')}</li>
      <li>{plural(c.userModel, 'user-model dimension')}</li>
      <li>
        {plural(c.knowledgeSources, 'knowledge source')} ({plural(c.knowledgeChunks, 'chunk')})
      </li>
      <li>{plural(c.messages, 'chat message')} and the conversation summary</li>
      <li>its pending background jobs</li>
    </ul>
  );
}

/**
 * Deleting needs the persona's name typed out; `main` can only be emptied. The core backs up the whole
 * database first (seconds), so the dialog stays open and says which step it is on until it is done.
 */
export function DeletePersonaDialog({ persona, onClose }: { persona: Persona; onClose(): void }) {
  const [typed, setTyped] = useState('');
  const { step, busy, failure, run } = useDeleteSteps(persona, onClose);
  const isMain = persona.id === 'main';
  // The core applies the same rule (src/shared/avatar.ts): the button is enabled exactly when it would accept.
  const matches = confirmsName(persona.name, typed);
  const first = graphemes(persona.name.trim())[0] ?? '';
  const withoutEmoji = isEmoji(first) ? persona.name.trim().slice(first.length).trimStart() : '';

  async function confirm() {
    if (!matches || busy) return;
    await run(typed);
  }

  // Closing mid-way would hide whether the data went: Esc and Cancel wait for the end.
  const close = () => {
    if (!busy) onClose();
  };

  return (
    <Dialog title={isMain ? `Empty “${persona.name}”?` : `Delete “${persona.name}”?`} testId="delete-persona-dialog" onClose={close}>
      <p>This removes, for good:</p>
      <DeleteCounts counts={persona.counts} />
      <p className="hint">A backup of everything is taken first (Settings → Data lists it).</p>
      {isMain && (
        <p className="hint" data-testid="main-note">
          “{persona.name}” is the default persona: it can be emptied but not removed.
        </p>
      )}
      <label>
        <span data-testid="delete-confirm-hint">
          Type <strong>{persona.name}</strong> to confirm
          {withoutEmoji && (
            <>
              {' '}
              (or just <strong>{withoutEmoji}</strong>, without the emoji)
            </>
          )}
        </span>
        <input
          data-testid="delete-confirm-input"
          value={typed}
          data-autofocus
          readOnly={busy}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void confirm()}
        />
      </label>
      <p className="hint" role="status" data-testid="delete-step">
        {step === 'backup' ? 'Backing up…' : step === 'delete' ? (isMain ? 'Emptying…' : 'Deleting…') : ''}
      </p>
      {failure && (
        <p className="field-error" role="alert" data-testid="delete-error" dir="auto">
          {failure}
        </p>
      )}
      <div className="dialog-actions">
        <button className="ghost" onClick={close} disabled={busy}>
          Cancel
        </button>
        <button className="danger-solid" data-testid="delete-confirm" disabled={!matches || busy} onClick={() => void confirm()}>
          {isMain ? 'Empty persona' : 'Delete persona'}
        </button>
      </div>
    </Dialog>
  );
}
