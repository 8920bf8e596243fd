import { useEffect, useState, type FormEvent } from 'react';
import { type Form, type Provider, switchProvider, toForm, toPatch } from './form';
import { KeyField } from './KeyField';
import { useSettings } from './store';

/** Providers, review cadence, context budget and workspace folder; keys are write-only. */
export function SettingsView() {
  const { settings, saving, load, save } = useSettings();
  const [form, setForm] = useState<Form | null>(null);

  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (settings) setForm(toForm(settings));
  }, [settings]);

  if (!settings || !form) {
    return (
      <section className="view settings-view" data-testid="settings-view">
        <header className="view-header">
          <h1>Settings</h1>
        </header>
        <p className="muted">Loading settings…</p>
      </section>
    );
  }

  const f = form;
  const field = (k: keyof Form) => ({
    value: f[k],
    onChange: (e: { target: { value: string } }) => setForm({ ...f, [k]: e.target.value }),
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    await save(toPatch(f));
  }

  return (
    <section className="view settings-view" data-testid="settings-view">
      <header className="view-header">
        <div>
          <h1>Settings</h1>
          <p className="muted">Keys are stored encrypted on this machine and never shown again.</p>
        </div>
      </header>
      <form className="settings-form" onSubmit={submit}>
        <fieldset className="card">
          <legend>Chat model</legend>
          <p className="hint">OpenAI, or any OpenAI-compatible server (Ollama, llama.cpp, LM Studio). Leave the base URL empty for OpenAI.</p>
          <label>
            Base URL
            <input data-testid="chat-base-url" placeholder="https://api.openai.com/v1 or http://127.0.0.1:11434/v1" {...field('chatBaseUrl')} />
          </label>
          <label>
            Model
            <input data-testid="chat-model" placeholder="e.g. gpt-4o-mini or llama3.1" {...field('chatModel')} />
          </label>
          <KeyField
            id="chat"
            label="API key"
            status={settings.chat.apiKey}
            value={f.chatKey}
            onChange={(v) => setForm({ ...f, chatKey: v })}
            onClear={() => void save({ chat: { apiKey: null } }, 'Chat API key cleared.')}
          />
        </fieldset>

        <fieldset className="card">
          <legend>Embeddings</legend>
          <div className="radio-row" role="radiogroup" aria-label="Embedding provider">
            {(['local', 'openai', 'compatible'] as Provider[]).map((p) => (
              <label key={p} className="radio">
                <input type="radio" name="provider" data-testid={`embeddings-provider-${p}`} checked={f.provider === p} onChange={() => setForm(switchProvider(f, p, settings))} />
                {p === 'local' ? 'Built-in (offline)' : p === 'openai' ? 'OpenAI' : 'OpenAI-compatible'}
              </label>
            ))}
          </div>
          {f.provider === 'local' ? (
            <p className="hint">Universal Sentence Encoder lite runs on this machine: semantic search works with no network.</p>
          ) : (
            <>
              {f.provider === 'compatible' && (
                <label>
                  Base URL
                  <input data-testid="embeddings-base-url" placeholder="http://127.0.0.1:11434/v1" {...field('embBaseUrl')} />
                </label>
              )}
              <label>
                Model
                <input data-testid="embeddings-model" placeholder="text-embedding-3-small" {...field('embModel')} />
              </label>
              <label>
                Dimensions
                <input
                  data-testid="embeddings-dimensions"
                  type="number"
                  min={1}
                  max={1536}
                  disabled={f.provider === 'openai'}
                  title={f.provider === 'openai' ? 'OpenAI embeddings are always requested at 1536 dimensions.' : undefined}
                  {...field('embDimensions')}
                />
              </label>
              <KeyField
                id="embeddings"
                label="API key"
                status={settings.embeddings.apiKey}
                value={f.embKey}
                onChange={(v) => setForm({ ...f, embKey: v })}
                onClear={() => void save({ embeddings: { provider: settings.embeddings.provider, apiKey: null } }, 'Embeddings API key cleared.')}
              />
            </>
          )}
          <p className="hint">Changing the model makes existing vectors stale; run Backfill in Jobs to re-embed them.</p>
        </fieldset>

        <fieldset className="card">
          <legend>Memory and context</legend>
          <label>
            Review every N user messages
            <input data-testid="review-every" type="number" min={1} {...field('reviewEvery')} />
          </label>
          <label>
            Context budget (tokens)
            <input data-testid="context-budget" type="number" min={1000} step={1000} {...field('contextBudget')} />
          </label>
          <label>
            Workspace folder
            <input data-testid="workspace-dir" placeholder="/home/you/Documents/hearth" {...field('workspaceDir')} />
          </label>
          <p className="hint">The assistant may ingest files from this folder only.</p>
        </fieldset>

        <div className="form-actions">
          <button type="button" className="ghost" onClick={() => setForm(toForm(settings))}>
            Revert
          </button>
          <button type="submit" className="primary" data-testid="settings-save" disabled={saving}>
            Save settings
          </button>
        </div>
      </form>
    </section>
  );
}
