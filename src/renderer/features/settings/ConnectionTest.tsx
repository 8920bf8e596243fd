import { useState } from 'react';
import type { ConnectionTest as Result } from '../../../shared/api';
import type { ArgsOf } from '../../../shared/methods';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';

type Args = ArgsOf<'settings.testConnection'>;

/**
 * "Test connection": one real request; the model's answer or the exact error, beside the
 * button. `onModels` receives the server's model list when it has one. With `draft` (the
 * chat form) it tests the values in the form, unsaved; without, the saved settings, so
 * unsaved edits ask to be saved first. `blocked` says why the form's values cannot be tested.
 */
export function ConnectionTest({
  which,
  dirty,
  onModels,
  draft,
  blocked,
}: {
  which: 'chat' | 'embeddings';
  dirty: boolean;
  onModels(ids: string[]): void;
  draft?: () => Args['chat'];
  blocked?: string;
}) {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  const waiting = Boolean(blocked) || (!draft && dirty);

  async function run() {
    setRunning(true);
    setResult(null);
    try {
      const r = await getApi().invoke('settings.testConnection', draft ? { which, chat: draft() } : { which });
      setResult(r);
      if (r.models?.length) onModels(r.models);
    } catch (e) {
      const { code, message } = errorInfo(e);
      setResult({ ok: false, code, message, ms: 0, models: null });
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="connection-test" data-testid={`${which}-connection`}>
      <button type="button" className="ghost small" data-testid={`${which}-test-connection`} disabled={running || waiting} onClick={() => void run()}>
        {running ? 'Testing…' : 'Test connection'}
      </button>
      {blocked ? <span className="muted">{blocked}</span> : waiting && <span className="muted">Save first: the test uses the saved settings.</span>}
      {result && (
        <p className={`connection-result ${result.ok ? 'ok' : 'failed'}`} data-testid={`${which}-connection-result`} role="status" dir="auto">
          {result.ok ? `Connected in ${result.ms} ms. ${result.detail}` : `Failed: ${result.message}`}
        </p>
      )}
    </div>
  );
}
