import type { ArgsOf } from '../../../shared/api';

export const ACCEPTED =
  '.pdf,.docx,.md,.markdown,.txt,.text,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/markdown,text/plain';

export function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // A data: URL is the browser's fast path to base64 for large files.
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read "${file.name}".`));
    reader.readAsDataURL(file);
  });
}

/**
 * How a dropped or picked file reaches the core: Electron gives its real path
 * (the core reads it), a browser only its bytes (uploaded as base64).
 * `asName` re-ingests a file under an existing source's name.
 */
export async function ingestArgs(persona: string, file: File, asName?: string): Promise<ArgsOf<'knowledge.ingest'>> {
  const path = window.hearth?.pathForFile(file) ?? null;
  if (path && (!asName || asName === file.name)) return { persona, path };
  return { persona, name: asName ?? file.name, dataBase64: await readAsBase64(file) };
}

export function formatBytes(n: number | null): string {
  if (n === null) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
