import { useEffect, useState } from 'react';
import type { DatabaseProbe, DatabaseTest, DatabaseView, Events } from '../../../shared/api';
import { Dialog } from '../../components/Dialog';
import { getApi } from '../../api';
import { useEvents } from '../../api/events';
import { errorInfo } from '../../lib/errors';
import { plural } from '../../lib/format';
import { Field } from '../settings/Field';
import { notify, reportError } from '../../stores/toasts';

// Settings → Data → "Use a PostgreSQL server" (docs/server-mode.md, "Switching in Settings").
// The URL typed here goes to the core and never comes back: the page shows user@host:port/database.

function describeVector(v: DatabaseProbe['vector']): string {
  return v === 'installed'
    ? 'pgvector: installed — search by meaning works.'
    : v === 'available'
      ? 'pgvector: available — Hearth installs it (the user must be allowed to CREATE EXTENSION).'
      : 'pgvector: missing — text-only: no vectors, recall ranks by text alone.';
}

function describeTextSearch(v: DatabaseProbe['textSearch']): string {
  return v === 'missing' ? 'pg_textsearch: missing — Hearth keeps its own term statistics for text ranking.' : `pg_textsearch: ${v}.`;
}

function describeContents(c: DatabaseProbe['contents']): string {
  switch (c.kind) {
    case 'empty':
      return 'The database is empty: Hearth creates its tables there.';
    case 'hearth':
      return `The database already holds a Hearth (schema ${c.schema}, ${plural(c.personas, 'persona')}): your personas are added beside them.`;
    case 'other':
      return `The database holds ${plural(c.tables, 'table')} of another program.`;
  }
}

function where(view: DatabaseView): string {
  if (view.active.kind === 'local') return "Hearth keeps your data on this computer, in the data folder.";
  const from = view.active.from === 'settings' ? 'chosen here in Settings' : 'set when Hearth was started (--database-url or HEARTH_DATABASE_URL)';
  return `Hearth keeps your data on the PostgreSQL server ${view.active.server} (${from})${view.active.textOnly ? ', text-only' : ''}.`;
}

export function ServerSection() {
  const [view, setView] = useState<DatabaseView | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const load = () =>
    getApi()
      .invoke('database.get', {})
      .then(setView, (e: unknown) => reportError(e, 'Could not read where the data is kept'));
  useEffect(() => void load(), []);
  if (!view) return null;

  async function useLocal() {
    setBusy(true);
    try {
      setView(await getApi().invoke('database.useLocal', {}));
      notify("From the next start Hearth uses this computer's data again. Restart Hearth to switch.");
    } catch (e) {
      reportError(e, 'Could not switch back');
    } finally {
      setBusy(false);
    }
  }

  const startOption = view.active.kind === 'server' && view.active.from === 'start-option';
  return (
    <div className="server-section" data-testid="database-where">
      <p data-testid="database-active">{where(view)}</p>
      {view.savedFailed && (
        <p className="field-error" data-testid="database-saved-failed">
          {view.savedFailed} This computer's data was opened instead.
        </p>
      )}
      {view.saved && (
        <p className="hint" data-testid="database-saved">
          Saved server: {view.saved.server}.{' '}
          {startOption
            ? 'It is not used while Hearth is started with a server of its own (--database-url or HEARTH_DATABASE_URL).'
            : view.restartNeeded
              ? 'Restart Hearth to use it.'
              : ''}
        </p>
      )}
      {!view.saved && view.restartNeeded && (
        <p className="hint" data-testid="database-restart">
          Restart Hearth to use this computer's data again.
        </p>
      )}
      <div className="data-actions">
        {view.active.kind === 'local' && (
          <button className="ghost" data-testid="database-open" disabled={busy} onClick={() => setOpen(true)}>
            Use a PostgreSQL server…
          </button>
        )}
        {view.saved && (
          <button className="ghost" data-testid="database-use-local" disabled={busy} onClick={() => void useLocal()}>
            Use this computer's data again
          </button>
        )}
      </div>
      {open && (
        <ServerDialog
          onClose={() => setOpen(false)}
          onSwitched={(v) => {
            setView(v);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

type CopyProgress = Events['database.copy'];

/** Copying every persona to the server and switching to it, with the copy's progress from the core's events. */
function useCopyAndSwitch(url: string, onSwitched: (v: DatabaseView) => void) {
  const [copying, setCopying] = useState(false);
  const [progress, setProgress] = useState<CopyProgress | null>(null);
  const [copyError, setCopyError] = useState<string | null>(null);
  useEvents(() => ({ 'database.copy': (p) => setProgress(p) }), []);

  async function copy() {
    setCopying(true);
    setCopyError(null);
    setProgress(null);
    try {
      const out = await getApi().invoke('database.copyAndSwitch', { url });
      const renamed = out.personas.filter((p) => p.to !== p.from).map((p) => `“${p.from}” is “${p.to}” there`);
      notify(
        `Copied ${plural(out.personas.length, 'persona')} to ${out.server}${renamed.length ? ` (${renamed.join(', ')})` : ''}. Restart Hearth to use the server.`,
      );
      onSwitched(out.view);
    } catch (e) {
      setCopyError(errorInfo(e).message);
    } finally {
      setCopying(false);
    }
  }

  return { copying, progress, copyError, setCopyError, copy };
}

/** What the connection test found: the server, its extensions, what it already holds, and whether a copy can go there. */
function TestResult({ result }: { result: DatabaseTest }) {
  if (!result.ok) {
    return (
      <p className="field-error" role="status" data-testid="database-test-result">
        {result.message}
      </p>
    );
  }
  return (
    <div role="status" data-testid="database-test-result">
      <p>
        Connected to {result.server}, PostgreSQL {result.version}.
      </p>
      <ul className="probe">
        <li>{describeVector(result.vector)}</li>
        <li>{describeTextSearch(result.textSearch)}</li>
        <li>{describeContents(result.contents)}</li>
      </ul>
      {!result.copy.ok && <p className="field-error">{result.copy.reason}</p>}
    </div>
  );
}

/** Which persona is being read or copied, and how far; nothing once the copy has ended. */
function CopyProgressLine({ progress }: { progress: CopyProgress }) {
  if (progress.stage === 'done' || progress.stage === 'failed') return null;
  return (
    <p className="hint" data-testid="database-copy-progress">
      {progress.stage === 'export' ? 'Reading' : 'Copying'} “{progress.persona}” ({progress.index} of {progress.count}){' '}
      <progress max={Math.max(1, progress.total)} value={progress.done} />
    </p>
  );
}

function ServerDialog({ onClose, onSwitched }: { onClose(): void; onSwitched(v: DatabaseView): void }) {
  const [url, setUrl] = useState('');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<DatabaseTest | null>(null);
  const { copying, progress, copyError, setCopyError, copy } = useCopyAndSwitch(url, onSwitched);

  async function test() {
    setTesting(true);
    setResult(null);
    setCopyError(null);
    try {
      setResult(await getApi().invoke('database.test', { url }));
    } catch (e) {
      const { code, message } = errorInfo(e);
      setResult({ ok: false, code, message });
    } finally {
      setTesting(false);
    }
  }

  return (
    <Dialog title="Use a PostgreSQL server" testId="database-dialog" onClose={() => !copying && onClose()}>
      <p className="hint">
        Several devices can share one memory on a PostgreSQL server. Hearth copies every persona of this computer into it once; the data on
        this computer is only read, and stays as it is. From the next start Hearth uses the server.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void test();
        }}
      >
        <Field
          label="Server URL"
          testId="database-url"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="postgres://user:password@host:5432/database"
          value={url}
          data-autofocus
          disabled={copying}
          onChange={(v) => {
            setUrl(v);
            setResult(null);
          }}
          hint="It holds the password, so it is kept like your API keys and never shown again: Settings shows only user@host/database."
        />
        <div className="data-actions">
          <button type="submit" className="ghost" data-testid="database-test" disabled={testing || copying || !url.trim()}>
            {testing ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </form>
      {result && <TestResult result={result} />}
      {copying && progress && <CopyProgressLine progress={progress} />}
      {copyError && (
        <p className="field-error" role="alert" data-testid="database-copy-error">
          {copyError}
        </p>
      )}
      <div className="dialog-actions">
        <button className="ghost" onClick={onClose} disabled={copying}>
          Cancel
        </button>
        <button
          className="primary"
          data-testid="database-copy"
          disabled={copying || !result?.ok || !result.copy.ok}
          onClick={() => void copy()}
        >
          {copying ? 'Copying…' : 'Copy my data and switch'}
        </button>
      </div>
    </Dialog>
  );
}
