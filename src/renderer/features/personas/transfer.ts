import { useEffect, useState } from 'react';
import type { Events, Persona, PersonaImport } from '../../../shared/api';
import { getApi } from '../../api';
import { useEvents } from '../../api/events';
import { readAsBase64 } from '../knowledge/files';

export type TransferProgress = Events['personas.transfer'];

/** The latest progress event of one export or import (by persona id, or the file's name for an import). */
export function useTransferProgress(op: 'export' | 'import', key: string | null): TransferProgress | null {
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  useEffect(() => setProgress(null), [op, key]);
  useEvents(
    () => ({
      'personas.transfer': (p) => {
        if (key && p.op === op && p.persona === key) setProgress(p);
      },
    }),
    [op, key],
  );
  return progress;
}

/**
 * Exports a persona. In a browser the file comes down as a one-time download
 * and is handed to the browser's own download; the desktop app has already
 * asked where to save. Resolves with where it went (null: cancelled).
 */
export async function exportPersona(persona: Persona): Promise<string | null> {
  const res = await getApi().invoke('personas.export', { id: persona.id });
  if (res.url) {
    const blob = await getApi().download(res.url);
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = res.name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    return res.name;
  }
  return res.path ?? null;
}

/** A picked .hearth file: Electron passes its path (the core reads it), a browser uploads its bytes. */
export async function importPersonaFile(file: File): Promise<PersonaImport> {
  const path = window.hearth?.pathForFile(file) ?? null;
  return getApi().invoke('personas.import', path ? { path } : { name: file.name, dataBase64: await readAsBase64(file) });
}
