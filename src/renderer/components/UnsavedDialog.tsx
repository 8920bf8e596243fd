import { useUnsaved } from '../stores/unsaved';
import { Dialog } from './Dialog';

/** "Discard unsaved changes?" when a navigation would drop a form's edits. */
export function UnsavedDialog() {
  const pending = useUnsaved((s) => s.pending);
  const dirty = useUnsaved((s) => s.dirty);
  if (!pending) return null;
  const forms = Object.values(dirty);
  return (
    <Dialog title="Discard unsaved changes?" testId="unsaved-dialog" onClose={() => useUnsaved.getState().stay()}>
      <p>
        {forms.length === 1 ? `${forms[0]} has` : `${forms.join(', ')} have`} changes that are not saved. Leaving now
        throws them away.
      </p>
      <div className="dialog-actions">
        <button className="ghost danger" data-testid="unsaved-discard" onClick={() => useUnsaved.getState().discard()}>
          Discard changes
        </button>
        <button className="primary" data-testid="unsaved-stay" data-autofocus onClick={() => useUnsaved.getState().stay()}>
          Keep editing
        </button>
      </div>
    </Dialog>
  );
}
