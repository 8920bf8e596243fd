import { create } from 'zustand';
import { useUnsaved } from './unsaved';

export const VIEWS = ['chat', 'memories', 'userModel', 'knowledge', 'activity', 'trash', 'jobs', 'settings'] as const;
export type View = (typeof VIEWS)[number];

export const VIEW_LABELS: Record<View, string> = {
  chat: 'Chat',
  memories: 'Memories',
  userModel: 'User model',
  knowledge: 'Knowledge',
  activity: 'Activity',
  trash: 'Trash',
  jobs: 'Jobs',
  settings: 'Settings',
};

function viewFromHash(hash: string): View {
  const name = hash.replace(/^#\/?/, '');
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'memories';
}

interface NavState {
  view: View;
  showHelp: boolean;
  /** The sidebar drawer, open on a narrow window (docs/ui.md). */
  menuOpen: boolean;
  go(view: View): void;
  setMenu(open: boolean): void;
  setHelp(open: boolean): void;
}

/** The current view lives in the URL hash, so a reload stays where the user was. */
export const useNav = create<NavState>((set, get) => ({
  view: viewFromHash(window.location.hash),
  showHelp: false,
  menuOpen: false,
  go(view) {
    if (get().menuOpen) set({ menuOpen: false });
    if (view === get().view) return;
    // Unsaved edits in the view being left are lost with it: ask first.
    useUnsaved.getState().request(() => {
      if (window.location.hash !== `#/${view}`) window.history.replaceState(window.history.state, '', `#/${view}`);
      set({ view });
    });
  },
  setMenu(open) {
    set({ menuOpen: open });
  },
  setHelp(open) {
    set({ showHelp: open });
  },
}));
