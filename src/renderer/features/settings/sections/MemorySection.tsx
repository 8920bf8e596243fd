import { useState } from 'react';
import type { SettingsView } from '../../../../shared/api';
import { reportError } from '../../../stores/toasts';
import { useSettings } from '../store';
import { Field } from '../Field';
import { SectionActions } from '../Section';
import { useSectionForm } from '../section-form';
import { WithSettings } from '../WithSettings';
import { memoryFormSpec } from './memory-form';

function MemoryForm({ settings }: { settings: SettingsView }) {
  const f = useSectionForm(settings, memoryFormSpec);
  return (
    <form className="settings-form" onSubmit={(e) => void f.submit(e)} onReset={(e) => (e.preventDefault(), f.revert())} noValidate>
      <Field
        label="Review every N user messages"
        testId="review-every"
        inputMode="numeric"
        value={f.form.reviewEvery}
        error={f.errors.reviewEvery}
        hint="A background review then saves what the conversation taught about you."
        onChange={(v) => f.set('reviewEvery', v)}
        onBlur={() => f.touch('reviewEvery')}
      />
      <Field
        label="Context budget (tokens)"
        testId="context-budget"
        inputMode="numeric"
        value={f.form.contextBudget}
        error={f.errors.contextBudget}
        hint="Past this size, older messages are folded into a summary (their facts saved first)."
        onChange={(v) => f.set('contextBudget', v)}
        onBlur={() => f.touch('contextBudget')}
      />
      <div className="field">
        <label className="switch">
          <input
            type="checkbox"
            data-testid="recall-rewrite"
            checked={f.form.recallRewrite === 'on'}
            onChange={(e) => f.set('recallRewrite', e.target.checked ? 'on' : 'off')}
          />
          Let the chat model help recall
        </label>
        <p className="hint">
          Before searching memories for a question, the chat model turns it into a few search queries. Slower, and it sends the question to that model; recall works without it.
        </p>
      </div>
      <SectionActions dirty={f.dirty} saving={f.saving} testId="settings-save-memory" error={f.formError} />
    </form>
  );
}

/**
 * The folder the chat's model may read files from. Never typed into the page
 * (docs/security.md): the desktop app asks with its own folder dialog; the
 * browser version takes it from how it was started.
 */
function WorkspaceFolder({ settings }: { settings: SettingsView }) {
  const [busy, setBusy] = useState(false);
  const pick = window.hearth?.pickFolder;
  async function save(workspaceDir: string | null, message: string) {
    setBusy(true);
    const r = await useSettings.getState().save({ workspaceDir }, message);
    setBusy(false);
    if (!r.ok) reportError(r.error, 'Could not change the workspace folder');
  }
  async function choose() {
    const path = await pick?.('Workspace folder');
    if (path) await save(path, 'Workspace folder chosen.');
  }
  return (
    <div className="field">
      <label htmlFor="workspace-dir">Workspace folder</label>
      <div className="field-row">
        <input id="workspace-dir" data-testid="workspace-dir" readOnly value={settings.workspaceDir ?? ''} placeholder="None" dir="ltr" aria-describedby="workspace-dir-hint" />
        {pick && (
          <button type="button" data-testid="workspace-dir-choose" disabled={busy} onClick={() => void choose()}>
            Choose folder…
          </button>
        )}
        {pick && settings.workspaceDir && (
          <button type="button" data-testid="workspace-dir-clear" disabled={busy} onClick={() => void save(null, 'No workspace folder.')}>
            Clear
          </button>
        )}
      </div>
      <p className="hint" id="workspace-dir-hint">
        {pick
          ? 'The assistant may ingest files from this folder only (each persona from its own subfolder).'
          : 'The assistant may ingest files from this folder only (each persona from its own subfolder). The browser version takes it from how Hearth was started: --workspace-dir or HEARTH_WORKSPACE_DIR.'}
      </p>
    </div>
  );
}

export function MemorySection() {
  return (
    <WithSettings>
      {(s) => (
        <>
          <MemoryForm settings={s} />
          <WorkspaceFolder settings={s} />
        </>
      )}
    </WithSettings>
  );
}
