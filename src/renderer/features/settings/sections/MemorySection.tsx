import type { SettingsView } from '../../../../shared/api';
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
      <Field
        label="Workspace folder"
        testId="workspace-dir"
        placeholder="/home/you/Documents/hearth"
        value={f.form.workspaceDir}
        error={f.errors.workspaceDir}
        hint="The assistant may ingest files from this folder only."
        onChange={(v) => f.set('workspaceDir', v)}
        onBlur={() => f.touch('workspaceDir')}
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

export function MemorySection() {
  return <WithSettings>{(s) => <MemoryForm settings={s} />}</WithSettings>;
}
