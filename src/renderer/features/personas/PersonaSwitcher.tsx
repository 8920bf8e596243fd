import { useEffect, useRef, useState } from 'react';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import type { Persona } from '../../../shared/api';
import { plural } from '../../lib/format';
import { usePersonas } from '../../stores/personas';
import { notify, reportError } from '../../stores/toasts';
import { DeletePersonaDialog } from './DeletePersonaDialog';
import { ExportPersonaDialog } from './ExportPersonaDialog';
import { PersonaFormDialog } from './PersonaFormDialog';
import { PersonaItem } from './PersonaItem';
import { importPersonaFile, useTransferProgress } from './transfer';

/** Importing a .hearth file: its progress, and Cancel, which holds until the import has begun. */
function usePersonaImport() {
  const [importing, setImporting] = useState<string | null>(null);
  const progress = useTransferProgress('import', importing);
  // Cancel may be pressed while a browser still uploads the file, before the import has begun:
  // it is asked again once the import reports progress, so it stops then.
  const [cancelling, setCancelling] = useState(false);
  useEffect(() => {
    if (cancelling && importing && progress) void getApi().invoke('personas.importCancel', { name: importing }).catch(() => undefined);
  }, [cancelling, importing, progress]);

  async function importFile(file: File) {
    setImporting(file.name);
    setCancelling(false);
    try {
      const res = await importPersonaFile(file);
      await usePersonas.getState().load();
      usePersonas.getState().setActive(res.persona.id);
      notify(`Imported “${res.persona.name}”: ${plural(res.persona.counts.memories, 'memory', 'memories')}, ${plural(res.persona.counts.knowledgeSources, 'document')}.`);
    } catch (e) {
      if (errorInfo(e).code === 'cancelled') notify(`Import of “${file.name}” cancelled: nothing was imported.`);
      else reportError(e, `Could not import “${file.name}”`);
    } finally {
      setImporting(null);
    }
  }

  function cancel() {
    setCancelling(true);
    if (importing) void getApi().invoke('personas.importCancel', { name: importing }).catch(() => undefined);
  }

  return { importing, progress, cancelling, importFile, cancel };
}

/** The sidebar's persona list: switch, create, rename, delete. */
export function PersonaSwitcher() {
  const personas = usePersonas((s) => s.personas);
  const activeId = usePersonas((s) => s.activeId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Persona | null>(null);
  const [exporting, setExporting] = useState<Persona | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const { importing, progress, cancelling, importFile, cancel } = usePersonaImport();

  return (
    <div className="persona-switcher" data-testid="persona-switcher">
      <div className="sidebar-heading">
        <span>Personas</span>
        <input
          ref={picker}
          type="file"
          accept=".hearth"
          hidden
          data-testid="persona-import-input"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) void importFile(file);
          }}
        />
        <button className="icon" data-testid="persona-import" title="Import a persona (.hearth)…" aria-label="Import a persona" disabled={!!importing} onClick={() => picker.current?.click()}>
          ⇧
        </button>
        <button className="icon" data-testid="persona-new" title="New persona" aria-label="New persona" onClick={() => setCreating(true)}>
          +
        </button>
      </div>
      {importing && (
        <p className="persona-importing" data-testid="persona-import-progress">
          Importing {importing}… <progress value={progress?.done ?? 0} max={progress?.total ?? 1} />{' '}
          <button type="button" data-testid="persona-import-cancel" disabled={cancelling} onClick={cancel}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        </p>
      )}
      <ul className="personas">
        {personas.map((p, i) => (
          <PersonaItem key={p.id} persona={p} index={i} active={p.id === activeId} onDelete={setDeleting} onExport={setExporting} />
        ))}
      </ul>
      {creating && <PersonaFormDialog onClose={() => setCreating(false)} />}
      {exporting && <ExportPersonaDialog persona={exporting} onClose={() => setExporting(null)} />}
      {deleting && <DeletePersonaDialog persona={personas.find((p) => p.id === deleting.id) ?? deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
