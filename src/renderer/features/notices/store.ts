import { create } from 'zustand';
import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';

/** Start-up notices (app.info): what Hearth found wrong and repaired or set aside, until dismissed. */
interface NoticesState {
  notices: string[];
  load(): Promise<void>;
  dismiss(notice: string): Promise<void>;
}

export const useNotices = create<NoticesState>((set) => ({
  notices: [],

  async load() {
    try {
      set({ notices: (await getApi().invoke('app.info', {})).notices });
    } catch (e) {
      reportError(e, 'Could not read what Hearth found at start');
    }
  },

  async dismiss(notice) {
    try {
      set({ notices: (await getApi().invoke('app.dismissNotice', { notice })).notices });
    } catch (e) {
      reportError(e, 'Could not dismiss the notice');
    }
  },
}));
