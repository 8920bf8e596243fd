import { create } from 'zustand';
import type { SettingsPatch, SettingsView } from '../../../shared/api';
import { getApi } from '../../api';
import { notify, reportError } from '../../stores/toasts';

export type SaveResult = { ok: true } | { ok: false; error: unknown };

interface SettingsState {
  settings: SettingsView | null;
  load(): Promise<void>;
  /** A refused save comes back as the error, for the form to show next to its fields (no toast). */
  save(patch: SettingsPatch, message?: string): Promise<SaveResult>;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: null,

  async load() {
    try {
      set({ settings: await getApi().invoke('settings.get', {}) });
    } catch (e) {
      reportError(e, 'Could not load settings');
    }
  },

  async save(patch, message = 'Settings saved.') {
    try {
      const settings = await getApi().invoke('settings.set', patch);
      set({ settings });
      notify(message);
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    }
  },
}));

/** Removes a stored key at once (the field asked first); a failure is a toast, the key stays. */
export async function clearKey(patch: SettingsPatch, message: string): Promise<void> {
  const result = await useSettings.getState().save(patch, message);
  if (!result.ok) reportError(result.error, 'Could not clear the key');
}
