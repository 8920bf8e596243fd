import { useMemo, useState, type FormEvent } from 'react';
import type { SettingsPatch, SettingsView } from '../../../shared/api';
import { useUnsavedChanges } from '../../stores/unsaved';
import { fieldIssues } from './issues';
import { useSettings } from './store';

export type FormFields = Record<string, string>;
export type FieldErrors<F extends FormFields> = Partial<Record<keyof F, string>>;

/** What one settings section edits: its fields as typed text, and the patch they become. */
export interface SectionFormSpec<F extends FormFields> {
  /** Names the section in "unsaved changes" questions. */
  label: string;
  read(s: SettingsView): F;
  /** Problems a person can fix before saving, by field (checked as they type). */
  validate(f: F, s: SettingsView): FieldErrors<F>;
  toPatch(f: F, s: SettingsView): SettingsPatch;
  /** The form field a server-side problem belongs to (its path, e.g. "chat.baseUrl"). */
  fieldFor(path: string): keyof F | null;
  savedMessage: string;
}

export interface SectionForm<F extends FormFields> {
  settings: SettingsView;
  form: F;
  dirty: boolean;
  saving: boolean;
  /** Errors to show now: a field's after it was left or a save was tried, the server's until edited. */
  errors: FieldErrors<F>;
  /** A server-side problem that belongs to no single field. */
  formError: string | null;
  set<K extends keyof F>(k: K, v: F[K]): void;
  replace(f: F): void;
  touch(k: keyof F): void;
  submit(e?: FormEvent): Promise<void>;
  revert(): void;
}

function same(a: FormFields, b: FormFields): boolean {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

/** A section's form over the stored settings: follows them until edited, then guards its edits. */
export function useSectionForm<F extends FormFields>(settings: SettingsView, spec: SectionFormSpec<F>): SectionForm<F> {
  const save = useSettings((s) => s.save);
  const base = useMemo(() => spec.read(settings), [settings, spec]);
  const [draft, setDraft] = useState<F | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<keyof F>>(new Set());
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<{ fields: FieldErrors<F>; form: string | null }>({ fields: {}, form: null });
  const [saving, setSaving] = useState(false);
  const form = draft ?? base;
  const dirty = draft !== null && !same(draft, base);
  useUnsavedChanges(`settings.${spec.label}`, spec.label, dirty);

  const local = spec.validate(form, settings);
  const errors: FieldErrors<F> = {};
  for (const k of Object.keys(form) as (keyof F)[]) {
    const e = server.fields[k] ?? ((tried || touched.has(k)) && local[k]);
    if (e) errors[k] = e;
  }

  const reset = () => {
    setDraft(null);
    setTouched(new Set());
    setTried(false);
    setServer({ fields: {}, form: null });
  };

  return {
    settings,
    form,
    dirty,
    saving,
    errors,
    formError: server.form,
    set(k, v) {
      setDraft({ ...form, [k]: v });
      if (server.fields[k] || server.form) setServer({ fields: { ...server.fields, [k]: undefined }, form: null });
    },
    replace(f) {
      setDraft(f);
    },
    touch(k) {
      if (!touched.has(k)) setTouched(new Set([...touched, k]));
    },
    async submit(e) {
      e?.preventDefault();
      setTried(true);
      if (Object.values(local).some(Boolean)) return;
      setSaving(true);
      const result = await save(spec.toPatch(form, settings), spec.savedMessage);
      setSaving(false);
      if (result.ok) reset();
      else setServer(fieldIssues(result.error, spec.fieldFor));
    },
    revert: reset,
  };
}
