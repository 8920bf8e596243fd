import { useEffect } from 'react';
import { create } from 'zustand';

// Forms with unsaved edits register here; leaving the view (another view, another
// persona, closing the window) asks before throwing the edits away.

interface UnsavedState {
  /** key → what a person calls the form ("Chat model"). */
  dirty: Record<string, string>;
  /** The navigation waiting for "Discard changes", or null. */
  pending: (() => void) | null;
  mark(key: string, label: string | null): void;
  /** Runs `leave` now when nothing is unsaved, else after the person agrees to discard. */
  request(leave: () => void): void;
  discard(): void;
  stay(): void;
}

export const useUnsaved = create<UnsavedState>((set, get) => ({
  dirty: {},
  pending: null,
  mark(key, label) {
    const has = key in get().dirty;
    if (label === null && !has) return;
    if (label !== null && get().dirty[key] === label) return;
    set((s) => {
      const dirty = { ...s.dirty };
      if (label === null) delete dirty[key];
      else dirty[key] = label;
      return { dirty };
    });
  },
  request(leave) {
    if (Object.keys(get().dirty).length === 0) leave();
    else set({ pending: leave });
  },
  discard() {
    const leave = get().pending;
    // The forms unmount as we leave; their edits go with them.
    set({ pending: null, dirty: {} });
    leave?.();
  },
  stay() {
    set({ pending: null });
  },
}));

/** Registers a form's unsaved state while it is mounted. */
export function useUnsavedChanges(key: string, label: string, dirty: boolean): void {
  useEffect(() => {
    useUnsaved.getState().mark(key, dirty ? label : null);
  }, [key, label, dirty]);
  useEffect(() => () => useUnsaved.getState().mark(key, null), [key]);
}

/** Closing or reloading the window with unsaved edits: the browser's own "Leave site?" prompt. */
export function useBeforeUnloadGuard(): void {
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (Object.keys(useUnsaved.getState().dirty).length > 0) e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
}
