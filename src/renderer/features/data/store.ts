import { create } from 'zustand';
import type { BackupInfo, IntegrityResult } from '../../../shared/api';
import { getApi } from '../../api';
import { notify, reportError } from '../../stores/toasts';

interface DataState {
  backups: BackupInfo[];
  /** What is running now: a backup, a restore, an integrity check (one at a time). */
  busy: 'backup' | 'restore' | 'check' | null;
  integrity: IntegrityResult | null;
  load(): Promise<void>;
  backUp(): Promise<void>;
  restore(id: string): Promise<boolean>;
  check(): Promise<void>;
}

export const useData = create<DataState>((set, get) => ({
  backups: [],
  busy: null,
  integrity: null,

  async load() {
    try {
      set({ backups: await getApi().invoke('backups.list', {}) });
    } catch (e) {
      reportError(e, 'Could not list the backups');
    }
  },

  async backUp() {
    set({ busy: 'backup' });
    try {
      const b = await getApi().invoke('backups.create', {});
      notify(b.verified ? 'Backup written and verified.' : 'Backup written, but its check found problems: see the list.');
      await get().load();
    } catch (e) {
      reportError(e, 'The backup failed');
    } finally {
      set({ busy: null });
    }
  },

  async restore(id) {
    set({ busy: 'restore' });
    try {
      await getApi().invoke('backups.restore', { id });
      notify('Restored. The data it replaced was backed up first (“before restore” in the list).');
      await get().load();
      return true;
    } catch (e) {
      reportError(e, 'The restore did not happen');
      return false;
    } finally {
      set({ busy: null });
    }
  },

  async check() {
    set({ busy: 'check', integrity: null });
    try {
      set({ integrity: await getApi().invoke('data.checkIntegrity', {}) });
    } catch (e) {
      reportError(e, 'The integrity check failed to run');
    } finally {
      set({ busy: null });
    }
  },
}));
