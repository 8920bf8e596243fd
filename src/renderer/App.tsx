import { Suspense, useEffect, type ComponentType } from 'react';
import { preloadMarkdown } from './components/Markdown';
import { MenuBar, MenuBackdrop } from './components/MenuBar';
import { ShortcutsHelp } from './components/ShortcutsHelp';
import { Toasts } from './components/Toasts';
import { UnsavedDialog } from './components/UnsavedDialog';
import { ChatView } from './features/chat/ChatView';
import { DropZone } from './features/knowledge/DropZone';
import { NoticesBanner } from './features/notices/NoticesBanner';
import { PersonaSwitcher } from './features/personas/PersonaSwitcher';
import { useSettings } from './features/settings/store';
import { Welcome } from './features/welcome/Welcome';
import { applyTheme } from './lib/theme';
import { useLiveUpdates } from './live';
import { useGlobalShortcuts } from './shortcuts';
import { useNav, VIEW_LABELS, VIEWS, type View } from './stores/nav';
import { usePersonas } from './stores/personas';
import { useBeforeUnloadGuard } from './stores/unsaved';
import { lazyView } from './lib/lazy-view';

// Only the chat, the usual first view, is in the page's first file; the others load when opened (docs/startup.md).
const ActivityView = lazyView(() => import('./features/history/ActivityView').then((m) => m.ActivityView));
const JobsView = lazyView(() => import('./features/jobs/JobsView').then((m) => m.JobsView));
const KnowledgeView = lazyView(() => import('./features/knowledge/KnowledgeView').then((m) => m.KnowledgeView));
const MemoriesView = lazyView(() => import('./features/memories/MemoriesView').then((m) => m.MemoriesView));
const SettingsView = lazyView(() => import('./features/settings/SettingsView').then((m) => m.SettingsView));
const TrashView = lazyView(() => import('./features/trash/TrashView').then((m) => m.TrashView));
const UserModelView = lazyView(() => import('./features/user-model/UserModelView').then((m) => m.UserModelView));

const SCREENS: Record<View, ComponentType> = {
  chat: ChatView,
  memories: MemoriesView,
  userModel: UserModelView,
  knowledge: KnowledgeView,
  activity: ActivityView,
  trash: TrashView,
  jobs: JobsView,
  settings: SettingsView,
};

const NAV_KEYS: Record<View, string> = { chat: 'g c', memories: 'g m', userModel: 'g u', knowledge: 'g k', activity: 'g a', trash: 'g t', jobs: 'g j', settings: 'g s' };

function Sidebar() {
  const view = useNav((s) => s.view);
  const go = useNav((s) => s.go);
  const menuOpen = useNav((s) => s.menuOpen);
  return (
    <aside className={`sidebar ${menuOpen ? 'open' : ''}`} id="sidebar" data-testid="sidebar" aria-label="Personas and views">
      <div className="brand">
        <span className="brand-mark" aria-hidden>
          ◆
        </span>
        Hearth
      </div>
      <PersonaSwitcher />
      <nav className="nav" aria-label="Views">
        {VIEWS.map((v) => (
          <button key={v} className={`nav-item ${view === v ? 'active' : ''}`} data-testid={`nav-${v}`} aria-current={view === v ? 'page' : undefined} title={NAV_KEYS[v]} onClick={() => go(v)}>
            {VIEW_LABELS[v]}
          </button>
        ))}
      </nav>
      <button className="help-link" data-testid="shortcuts-button" onClick={() => useNav.getState().setHelp(true)}>
        Keyboard shortcuts <kbd>?</kbd>
      </button>
    </aside>
  );
}

export function App() {
  const view = useNav((s) => s.view);
  const showHelp = useNav((s) => s.showHelp);
  const loaded = usePersonas((s) => s.loaded);
  const activeId = usePersonas((s) => s.activeId);
  useGlobalShortcuts();
  useLiveUpdates();
  useBeforeUnloadGuard();
  // Once the first view is drawn, the Markdown renderer loads ahead of the first message.
  useEffect(() => void (loaded && preloadMarkdown()), [loaded]);
  // The theme setting wins over the copy theme-boot.js drew the page with (lib/theme.ts).
  useEffect(() => {
    const off = useSettings.subscribe((s, prev) => {
      if (s.settings && s.settings.theme !== prev.settings?.theme) applyTheme(s.settings.theme);
    });
    void useSettings.getState().load();
    return off;
  }, []);

  const Screen = SCREENS[view];
  return (
    <DropZone>
      <div className="app" data-testid="app" data-active-persona={activeId}>
        {/* First stop for Tab: past the sidebar straight into the view. Focus moves by script so the URL (and its token) stays as it is. */}
        <a
          className="skip-link"
          href="#main"
          data-testid="skip-link"
          onClick={(e) => {
            e.preventDefault();
            document.getElementById('main')?.focus();
          }}
        >
          Skip to main content
        </a>
        <Sidebar />
        <MenuBackdrop />
        <main className="main" id="main" tabIndex={-1} data-testid="main">
          <MenuBar />
          <NoticesBanner />
          <Welcome />
          {loaded ? (
            <Suspense fallback={<p className="muted loading">Loading…</p>}>
              <Screen key={activeId} />
            </Suspense>
          ) : (
            <p className="muted loading">Loading…</p>
          )}
        </main>
        <Toasts />
        {showHelp && <ShortcutsHelp />}
        <UnsavedDialog />
      </div>
    </DropZone>
  );
}
