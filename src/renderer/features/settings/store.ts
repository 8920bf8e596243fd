import { create } from 'zustand';
import type { SettingsPatch, SettingsView } from '../../../shared/api';
import { getApi } from '../../api';
import { notify, reportError } from '../../stores/toasts';

interface SettingsState {
  settings: SettingsView | null;
  saving: boolean;
  load(): Promise<void>;
  save(patch: SettingsPatch, message?: string): Promise<boolean>;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  saving: false,

  async load() {
    try {
      set({ settings: await getApi().invoke('settings.get', {}) });
    } catch (e) {
      reportError(e, 'Could not load settings');
    }
  },

  async save(patch, message = 'Settings saved.') {
    set({ saving: true });
    try {
      const settings = await getApi().invoke('settings.set', patch);
      set({ settings, saving: false });
      notify(message);
      return true;
    } catch (e) {
      set({ saving: false });
      reportError(e, 'Could not save settings');
      return false;
    }
  },
}));
