import { useEffect, useRef, useState } from 'react';
import type { Persona } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { errorInfo } from '../../lib/errors';
import { plural } from '../../lib/format';
import { exportPersona, useTransferProgress } from './transfer';

/** Persona menu → Export…: writes the whole persona to one .hearth file, with progress. */
export function ExportPersonaDialog({ persona, onClose }: { persona: Persona; onClose(): void }) {
  const [state, setState] = useState<{ phase: 'working' } | { phase: 'done'; where: string | null } | { phase: 'failed'; message: string }>({ phase: 'working' });
  const progress = useTransferProgress('export', persona.id);
  const c = persona.counts;

  // One export per dialog, even when React runs the effect twice (StrictMode in development).
  const job = useRef<Promise<string | null> | null>(null);
  useEffect(() => {
    let live = true;
    job.current ??= exportPersona(persona);
    job.current.then(
      (where) => live && setState({ phase: 'done', where }),
      (e: unknown) => live && setState({ phase: 'failed', message: errorInfo(e).message }),
    );
    return () => {
      live = false;
    };
  }, [persona]);

  return (
    <Dialog title={`Export “${persona.name}”`} testId="export-persona-dialog" onClose={onClose}>
      <p>
        One file with everything this persona holds: {plural(c.memories, 'memory', 'memories')}, {plural(c.userModel, 'user-model dimension')},{' '}
        {plural(c.knowledgeSources, 'document')}, {plural(c.messages, 'chat message')}. No settings or API keys.
      </p>
      {state.phase === 'working' && (
        <p data-testid="export-progress">
          <progress value={progress?.done ?? 0} max={progress?.total ?? 1} /> Writing…
        </p>
      )}
      {state.phase === 'done' && (
        <p data-testid="export-done">{state.where ? `Saved: ${state.where}` : 'Not saved: you cancelled.'}</p>
      )}
      {state.phase === 'failed' && (
        <p className="error" role="alert" data-testid="export-error">
          {state.message}
        </p>
      )}
      <div className="dialog-actions">
        <button className="primary" data-testid="export-close" data-autofocus onClick={onClose} disabled={state.phase === 'working'}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
