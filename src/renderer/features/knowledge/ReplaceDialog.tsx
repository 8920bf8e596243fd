import { Dialog } from '../../components/Dialog';
import { freeName, useKnowledge } from './store';

/** Asks before a dropped file replaces the document of the same name (one question per file). */
export function ReplaceDialog() {
  const conflict = useKnowledge((s) => s.conflicts[0]);
  if (!conflict) return null;
  const resolve = useKnowledge.getState().resolveConflict;
  const name = conflict.file.name;
  return (
    <Dialog key={`${conflict.persona}/${name}`} title={`“${name}” is already in the knowledge base`} testId="replace-source-dialog" onClose={() => resolve('skip')}>
      <p>Replace the stored document with this file, or keep both (the new one is added as “{freeName(name, conflict.taken)}”)?</p>
      <div className="dialog-actions">
        <button className="ghost" data-testid="replace-skip" onClick={() => resolve('skip')}>
          Cancel
        </button>
        <button className="ghost" data-testid="replace-keep-both" onClick={() => resolve('keep-both')}>
          Keep both
        </button>
        <button className="danger-solid" data-testid="replace-confirm" data-autofocus onClick={() => resolve('replace')}>
          Replace
        </button>
      </div>
    </Dialog>
  );
}
