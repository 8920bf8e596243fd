import { useState } from 'react';
import type { Persona } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { usePersonas } from '../../stores/personas';
import { AvatarPicker, avatarInputProblem } from './AvatarPicker';
import { PrivacySettings } from './PrivacySettings';
import { PERSONA_NAME_MAX } from '../../../shared/contract/limits';

/** Creating a persona (no `persona`) or editing one: its name and avatar, and (once it exists) its privacy. */
export function PersonaFormDialog({ persona, onClose }: { persona?: Persona; onClose(): void }) {
  const [name, setName] = useState(persona?.name ?? '');
  const [avatar, setAvatar] = useState<string | null>(persona?.avatar ?? null);
  const [busy, setBusy] = useState(false);
  const ready = !!name.trim() && !avatarInputProblem(avatar) && !busy;

  async function save() {
    if (!ready) return;
    setBusy(true);
    const store = usePersonas.getState();
    const done = persona ? await store.rename(persona.id, name.trim(), avatar) : !!(await store.create(name.trim(), avatar));
    setBusy(false);
    if (done) onClose();
  }

  return (
    <Dialog title={persona ? `Edit “${persona.name}”` : 'New persona'} testId={persona ? 'persona-rename-dialog' : 'persona-create-dialog'} onClose={onClose}>
      <form
        className="persona-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          <span>Name</span>
          <input
            data-testid={persona ? 'persona-rename-input' : 'persona-name-input'}
            placeholder="e.g. Trader"
            maxLength={PERSONA_NAME_MAX}
            value={name}
            data-autofocus
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <AvatarPicker name={name} value={avatar} onChange={setAvatar} />
        {persona && <PrivacySettings persona={persona} />}
        <div className="dialog-actions">
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" data-testid={persona ? 'persona-rename-save' : 'persona-create'} disabled={!ready}>
            {persona ? 'Save' : 'Create'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
