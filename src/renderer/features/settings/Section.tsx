import type { ComponentType, ReactNode } from 'react';

/** One entry of the Settings page: a heading, a line saying what it is for, and its component. */
export interface SettingsSectionDef {
  id: string;
  title: string;
  description?: ReactNode;
  Section: ComponentType;
}

export function SectionFrame({ def }: { def: SettingsSectionDef }) {
  const { id, title, description, Section } = def;
  return (
    <section className="card settings-section" id={`settings-${id}`} aria-labelledby={`settings-${id}-title`} data-testid={`settings-section-${id}`}>
      <header className="settings-section-head">
        <h2 id={`settings-${id}-title`}>{title}</h2>
        {description && <p className="hint">{description}</p>}
      </header>
      <Section />
    </section>
  );
}

/** Save / Revert for a section's form; says when there is something to save. */
export function SectionActions({ dirty, saving, testId, error }: { dirty: boolean; saving: boolean; testId: string; error?: string | null }) {
  return (
    <div className="form-actions">
      {error && (
        <p className="field-error form-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
      {dirty && !error && (
        <span className="hint" data-testid={`${testId}-unsaved`}>
          Unsaved changes
        </span>
      )}
      <button type="reset" className="ghost" data-testid={`${testId}-revert`} disabled={!dirty || saving}>
        Revert
      </button>
      <button type="submit" className="primary" data-testid={testId} disabled={!dirty || saving}>
        {saving ? 'Saving…' : 'Save'}
      </button>
    </div>
  );
}
