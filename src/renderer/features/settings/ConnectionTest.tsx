import { useState } from 'react';
import type { ConnectionTest as Result } from '../../../shared/api';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';

/**
 * "Test connection": one real request with the saved settings; the model's answer or the
 * exact error, beside the button. `onModels` receives the server's model list when it has one.
 */
export function ConnectionTest({ which, dirty, onModels }: { which: 'chat' | 'embeddings'; dirty: boolean; onModels(ids: string[]): void }) {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function run() {
    setRunning(true);
    setResult(null);
    try {
      const r = await getApi().invoke('settings.testConnection', { which });
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
      <button type="button" className="ghost small" data-testid={`${which}-test-connection`} disabled={running || dirty} onClick={() => void run()}>
        {running ? 'Testing…' : 'Test connection'}
      </button>
      {dirty && <span className="muted">Save first: the test uses the saved settings.</span>}
      {result && (
        <p className={`connection-result ${result.ok ? 'ok' : 'failed'}`} data-testid={`${which}-connection-result`} role="status" dir="auto">
          {result.ok ? `Connected in ${result.ms} ms. ${result.detail}` : `Failed: ${result.message}`}
        </p>
      )}
    </div>
  );
}
