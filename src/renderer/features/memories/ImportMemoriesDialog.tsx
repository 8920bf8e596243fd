import { useState } from 'react';
import type { ImportFormat, ImportFromResult } from '../../../shared/api';
import { getApi } from '../../api';
import { Dialog } from '../../components/Dialog';
import { errorInfo } from '../../lib/errors';
import { longDay, plural } from '../../lib/format';
import { notify } from '../../stores/toasts';
import { readAsBase64 } from '../knowledge/files';

const FORMATS: { value: ImportFormat; label: string; hint: string }[] = [
  { value: 'text', label: 'Markdown or text list', hint: 'One memory per bullet or paragraph; a leading “2025-03-04:” sets the day.' },
  { value: 'chatgpt', label: 'ChatGPT saved memories', hint: 'Copy them from ChatGPT’s Settings → Personalization → Manage memories and paste: one per line.' },
  { value: 'mem0', label: 'mem0 export (JSON)', hint: 'The JSON mem0 gives for a user’s memories (get_all or an export).' },
];

/** "2 duplicates and 1 near-duplicate" (docs/duplicates.md). */
function skippedText(r: ImportFromResult): string {
  const exact = plural(r.duplicates, 'duplicate');
  return r.nearDuplicates ? `${exact} and ${plural(r.nearDuplicates, 'near-duplicate')}` : exact;
}

/** Memories → Import…: shows what would be added and skipped before writing anything. */
export function ImportMemoriesDialog({ persona, onClose }: { persona: string; onClose(): void }) {
  const [format, setFormat] = useState<ImportFormat>('text');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportFromResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(dryRun: boolean) {
    setBusy(true);
    setError(null);
    try {
      const input = file ? { dataBase64: await readAsBase64(file) } : { text };
      const res = await getApi().invoke('memories.importFrom', { persona, format, ...input, dryRun });
      if (dryRun) setPreview(res);
      else {
        notify(`Imported ${plural(res.added, 'memory', 'memories')}; ${skippedText(res)} skipped.`);
        onClose();
      }
    } catch (e) {
      setError(errorInfo(e).message);
    } finally {
      setBusy(false);
    }
  }

  const changed = () => setPreview(null);
  return (
    <Dialog title="Import memories" testId="import-memories-dialog" onClose={onClose}>
      <label>
        <span>From</span>
        <select data-testid="import-format" value={format} onChange={(e) => (setFormat(e.target.value as ImportFormat), changed())}>
          {FORMATS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">{FORMATS.find((f) => f.value === format)!.hint}</p>
      <label>
        <span>Paste here</span>
        <textarea data-testid="import-text" rows={8} value={text} disabled={!!file} data-autofocus onChange={(e) => (setText(e.target.value), changed())} />
      </label>
      <label>
        <span>…or pick a file</span>
        <input
          type="file"
          data-testid="import-file"
          accept=".md,.markdown,.txt,.text,.json,text/plain,text/markdown,application/json"
          onChange={(e) => (setFile(e.currentTarget.files?.[0] ?? null), changed())}
        />
      </label>
      {error && (
        <p className="error" role="alert" data-testid="import-error">
          {error}
        </p>
      )}
      {preview && <ImportPreview preview={preview} />}
      <div className="dialog-actions">
        <button className="ghost" onClick={onClose}>
          Cancel
        </button>
        {preview ? (
          <button className="primary" data-testid="import-confirm" disabled={busy || preview.added === 0} onClick={() => void run(false)}>
            Import {plural(preview.added, 'memory', 'memories')}
          </button>
        ) : (
          <button className="primary" data-testid="import-preview-button" disabled={busy || (!text.trim() && !file)} onClick={() => void run(true)}>
            Preview
          </button>
        )}
      </div>
    </Dialog>
  );
}

/** What the import would do, before anything is written: each item added or skipped as a (near-)duplicate. */
function ImportPreview({ preview }: { preview: ImportFromResult }) {
  return (
    <div className="import-preview" data-testid="import-preview">
      <p data-testid="import-summary">
        {plural(preview.added, 'memory', 'memories')} to add, {skippedText(preview)} to skip.
      </p>
      <ul>
        {preview.items.slice(0, 200).map((i, n) => (
          <li key={n} className={i.status} data-testid="import-item" data-status={i.status}>
            <time className="import-day" dateTime={i.day}>{longDay(i.day)}</time> {i.content}
            {i.status === 'duplicate' && <em> — already a memory</em>}
            {i.status === 'near-duplicate' && <em> — already a memory in other words</em>}
          </li>
        ))}
      </ul>
    </div>
  );
}
