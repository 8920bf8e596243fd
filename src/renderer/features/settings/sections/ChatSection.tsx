import { useState } from 'react';
import type { SettingsView } from '../../../../shared/api';
import { plural } from '../../../lib/format';
import { ConnectionTest } from '../ConnectionTest';
import { Field } from '../Field';
import { KeyClearedNotice } from '../KeyClearedNotice';
import { KeyField } from '../KeyField';
import { keysClearedBy } from '../key-notice';
import { SectionActions } from '../Section';
import { useSectionForm } from '../section-form';
import { clearKey } from '../store';
import { WithSettings } from '../WithSettings';
import { urlProblem } from '../validate';
import { chatFormSpec } from './chat-form';

function ChatForm({ settings }: { settings: SettingsView }) {
  const f = useSectionForm(settings, chatFormSpec);
  const [models, setModels] = useState<string[]>([]);
  const keyCleared = keysClearedBy(chatFormSpec.toPatch(f.form, settings), settings).chat;
  return (
    <form className="settings-form" onSubmit={(e) => void f.submit(e)} onReset={(e) => (e.preventDefault(), f.revert())} noValidate>
      <Field
        label="Base URL"
        testId="chat-base-url"
        placeholder="https://api.openai.com/v1 or http://127.0.0.1:11434/v1"
        value={f.form.baseUrl}
        error={f.errors.baseUrl}
        hint="Leave empty for OpenAI."
        onChange={(v) => f.set('baseUrl', v)}
        onBlur={() => f.touch('baseUrl')}
      />
      <Field
        label="Model"
        testId="chat-model"
        placeholder="e.g. gpt-4o-mini or llama3.1"
        value={f.form.model}
        error={f.errors.model}
        onChange={(v) => f.set('model', v)}
        onBlur={() => f.touch('model')}
        list="chat-models"
        hint={models.length ? `${plural(models.length, 'model')} on this server: pick one or type a name.` : undefined}
      />
      {/* Filled from the server's /models after a connection test, when it answers. */}
      <datalist id="chat-models" data-testid="chat-models">
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <KeyField
        id="chat"
        label="API key"
        status={settings.chat.apiKey}
        value={f.form.key}
        error={f.errors.key}
        onChange={(v) => f.set('key', v)}
        onClear={() => clearKey({ chat: { apiKey: null } }, 'Chat API key cleared.')}
      />
      {keyCleared && <KeyClearedNotice id="chat" server={settings.chat.baseUrl ?? 'OpenAI'} />}
      <ConnectionTest
        which="chat"
        dirty={f.dirty}
        onModels={setModels}
        blocked={urlProblem(f.form.baseUrl) ? 'Fix the base URL to test it.' : undefined}
        // The values as typed, unsaved; a blank key field means the stored key, which the core
        // sends only to the server it was entered for (docs/security.md).
        draft={() => {
          const { chat } = chatFormSpec.toPatch(f.form, settings);
          return { baseUrl: chat?.baseUrl ?? null, model: chat?.model ?? null, ...(chat?.apiKey ? { apiKey: chat.apiKey } : {}) };
        }}
      />
      <SectionActions dirty={f.dirty} saving={f.saving} testId="settings-save-chat" error={f.formError} />
    </form>
  );
}

export function ChatSection() {
  return <WithSettings>{(s) => <ChatForm settings={s} />}</WithSettings>;
}
