import { useEffect, useState } from 'react';
import type { FolderWatch, WatchedFile } from '../../../shared/api';
import { useWatches } from './watch-store';

const FILE_STATE_TEXT: Record<WatchedFile['state'], string> = {
  pending: 'waiting',
  ingesting: 'ingesting…',
  ingested: 'ingested',
  error: 'error',
};

function countsText(w: FolderWatch): string {
  const parts = [`${w.counts.ingested} ingested`];
  if (w.counts.ingesting) parts.push(`${w.counts.ingesting} ingesting`);
  if (w.counts.pending) parts.push(`${w.counts.pending} waiting`);
  if (w.counts.error) parts.push(`${w.counts.error} with errors`);
  return parts.join(' · ');
}

function FileRow({ file }: { file: WatchedFile }) {
  return (
    <li className={`watch-file watch-file-${file.state}`} data-testid="watch-file" data-path={file.path} data-state={file.state}>
      <span className="watch-file-name">{file.path}</span>
      <span className="muted">{FILE_STATE_TEXT[file.state]}</span>
      {file.error && (
        <p className="ingest-error" data-testid="watch-file-error">
          {file.error}
        </p>
      )}
    </li>
  );
}

function WatchRow({ watch }: { watch: FolderWatch }) {
  // Errors and work in progress show at once; the ingested files on request.
  const open = watch.files.filter((f) => f.state !== 'ingested');
  const done = watch.files.filter((f) => f.state === 'ingested');
  return (
    <li className="watch" data-testid="watch-row" data-folder={watch.folder}>
      <div className="ingest-head">
        <span className="ingest-name">{watch.label}</span>
        <span className="muted watch-folder">{watch.folder}</span>
        <button onClick={() => void useWatches.getState().unwatch(watch.folder)} aria-label={`Unwatch ${watch.folder}`} data-testid="watch-unwatch">
          Unwatch
        </button>
      </div>
      <p className="muted" data-testid="watch-counts">
        {countsText(watch)}
      </p>
      {watch.status === 'missing' && (
        <p className="ingest-error" role="status" data-testid="watch-missing">
          The folder cannot be read now. Nothing of it is removed; Hearth looks for it again every 30 seconds.
        </p>
      )}
      {open.length > 0 && (
        <ul className="watch-files">
          {open.map((f) => (
            <FileRow key={f.path} file={f} />
          ))}
        </ul>
      )}
      {done.length > 0 && (
        <details>
          <summary>Ingested files</summary>
          <ul className="watch-files">
            {done.map((f) => (
              <FileRow key={f.path} file={f} />
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/** The browser version: a folder typed or chosen from the ones the host allows. */
function FolderField({ allowed }: { allowed: string[] }) {
  const [folder, setFolder] = useState(allowed[0] ?? '');
  const [edited, setEdited] = useState(false);
  const busy = useWatches((s) => s.busy);
  const first = allowed[0];
  // The allowed folders may arrive after the form opened: the first one is offered until the person types.
  useEffect(() => {
    if (!edited && first) setFolder(first);
  }, [edited, first]);
  return (
    <form
      className="watch-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (folder.trim()) void useWatches.getState().watch(folder.trim());
      }}
    >
      <label>
        Folder to watch
        <input
          data-testid="watch-folder-input"
          list="watch-allowed-dirs"
          value={folder}
          onChange={(e) => {
            setEdited(true);
            setFolder(e.currentTarget.value);
          }}
          placeholder={allowed[0] ?? '/path/to/folder'}
        />
      </label>
      <datalist id="watch-allowed-dirs">
        {allowed.map((d) => (
          <option key={d} value={d} />
        ))}
      </datalist>
      <button type="submit" className="primary" disabled={busy} data-testid="watch-submit">
        Watch
      </button>
      <p className="muted">
        {allowed.length
          ? `The browser version watches folders inside: ${allowed.join(', ')}.`
          : 'This Hearth was started without watch folders. Start it with HEARTH_WATCH_DIRS (or --watch-dir) to allow some.'}
      </p>
    </form>
  );
}

/** Folders the persona keeps ingested: "Watch a folder…", each watch with its files' states, Unwatch. */
export function WatchedFolders({ persona }: { persona: string }) {
  const watches = useWatches((s) => s.watches);
  const allowedDirs = useWatches((s) => s.allowedDirs);
  const refusal = useWatches((s) => s.refusal);
  const [asking, setAsking] = useState(false);
  const desktop = !!window.hearth?.pickFolder;

  useEffect(() => useWatches.getState().open(persona), [persona]);

  return (
    <section className="watches" aria-label="Watched folders" data-testid="watches">
      <div className="ingest-head">
        <h2 className="ingest-name">Watched folders</h2>
        <button
          data-testid="watch-add"
          onClick={() => (desktop ? void useWatches.getState().pickAndWatch() : setAsking((a) => !a))}
          aria-expanded={desktop ? undefined : asking}
        >
          Watch a folder…
        </button>
      </div>
      {!desktop && asking && <FolderField allowed={allowedDirs ?? []} />}
      {refusal && (
        <p className="ingest-error" role="alert" data-testid="watch-refusal">
          {refusal}
        </p>
      )}
      {watches.length > 0 && (
        <ul className="ingests">
          {watches.map((w) => (
            <WatchRow key={w.folder} watch={w} />
          ))}
        </ul>
      )}
    </section>
  );
}
