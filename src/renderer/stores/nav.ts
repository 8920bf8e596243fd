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
  go(view: View): void;
  setHelp(open: boolean): void;
}

/** The current view lives in the URL hash, so a reload stays where the user was. */
export const useNav = create<NavState>((set, get) => ({
  view: viewFromHash(window.location.hash),
  showHelp: false,
  go(view) {
    if (view === get().view) return;
    // Unsaved edits in the view being left are lost with it: ask first.
    useUnsaved.getState().request(() => {
      if (window.location.hash !== `#/${view}`) window.history.replaceState(window.history.state, '', `#/${view}`);
      set({ view });
    });
  },
  setHelp(open) {
    set({ showHelp: open });
  },
}));
