import { useState } from 'react';
import type { SettingsView } from '../../../../shared/api';
import { ConnectionTest } from '../ConnectionTest';
import { Field } from '../Field';
import { KeyClearedNotice } from '../KeyClearedNotice';
import { KeyField } from '../KeyField';
import { keysClearedBy } from '../key-notice';
import { SectionActions } from '../Section';
import { useSectionForm } from '../section-form';
import { clearKey } from '../store';
import { WithSettings } from '../WithSettings';
import { embeddingsFormSpec, switchProvider, type Provider } from './embeddings-form';

const PROVIDERS: [Provider, string][] = [
  ['local', 'Built-in (offline)'],
  ['openai', 'OpenAI'],
  ['compatible', 'OpenAI-compatible'],
];

/** Where embeddings come from: built in, OpenAI, or an OpenAI-compatible server. */
function ProviderChoice({ provider, onChoose }: { provider: Provider; onChoose(p: Provider): void }) {
  return (
    <fieldset className="radio-row">
      <legend className="visually-hidden">Embedding provider</legend>
      {PROVIDERS.map(([value, label]) => (
        <label key={value} className="radio">
          <input type="radio" name="provider" data-testid={`embeddings-provider-${value}`} checked={provider === value} onChange={() => onChoose(value)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function EmbeddingsForm({ settings }: { settings: SettingsView }) {
  const f = useSectionForm(settings, embeddingsFormSpec);
  const p = f.form.provider;
  const [models, setModels] = useState<string[]>([]);
  const keyCleared = keysClearedBy(embeddingsFormSpec.toPatch(f.form, settings), settings).embeddings;
  return (
    <form className="settings-form" onSubmit={(e) => void f.submit(e)} onReset={(e) => (e.preventDefault(), f.revert())} noValidate>
      <ProviderChoice provider={p} onChoose={(value) => f.replace(switchProvider(f.form, value, settings))} />
      {p === 'local' ? (
        <p className="hint">Universal Sentence Encoder lite runs on this machine: semantic search works with no network.</p>
      ) : (
        <>
          {p === 'compatible' && (
            <Field
              label="Base URL"
              testId="embeddings-base-url"
              placeholder="http://127.0.0.1:11434/v1"
              value={f.form.baseUrl}
              error={f.errors.baseUrl}
              onChange={(v) => f.set('baseUrl', v)}
              onBlur={() => f.touch('baseUrl')}
            />
          )}
          <Field
            label="Model"
            testId="embeddings-model"
            placeholder="text-embedding-3-small"
            value={f.form.model}
            error={f.errors.model}
            onChange={(v) => f.set('model', v)}
            onBlur={() => f.touch('model')}
            list="embedding-models"
          />
          <datalist id="embedding-models" data-testid="embedding-models">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <Field
            label="Dimensions"
            testId="embeddings-dimensions"
            inputMode="numeric"
            value={f.form.dimensions}
            error={f.errors.dimensions}
            disabled={p === 'openai'}
            hint={p === 'openai' ? 'OpenAI embeddings are always requested at 1536 dimensions.' : 'The length of the vectors this model returns (1 to 1536).'}
            onChange={(v) => f.set('dimensions', v)}
            onBlur={() => f.touch('dimensions')}
          />
          <KeyField
            id="embeddings"
            label="API key"
            status={settings.embeddings.apiKey}
            value={f.form.key}
            error={f.errors.key}
            onChange={(v) => f.set('key', v)}
            onClear={() => clearKey({ embeddings: { provider: settings.embeddings.provider, apiKey: null } }, 'Embeddings API key cleared.')}
          />
        </>
      )}
      {keyCleared && <KeyClearedNotice id="embeddings" server={settings.embeddings.baseUrl ?? 'OpenAI'} />}
      <p className="hint">Changing the model makes existing vectors stale; run Backfill in Jobs to re-embed them.</p>
      <ConnectionTest which="embeddings" dirty={f.dirty} onModels={setModels} />
      <SectionActions dirty={f.dirty} saving={f.saving} testId="settings-save-embeddings" error={f.formError} />
    </form>
  );
}

export function EmbeddingsSection() {
  return <WithSettings>{(s) => <EmbeddingsForm settings={s} />}</WithSettings>;
}
