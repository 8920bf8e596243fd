import { useEffect } from 'react';
import { ConnectionsSection } from '../connections/ConnectionsSection';
import { DataSection } from '../data/DataSection';
import { type SettingsSectionDef, SectionFrame } from './Section';
import { AppearanceSection } from './sections/AppearanceSection';
import { ChatSection } from './sections/ChatSection';
import { EmbeddingsSection } from './sections/EmbeddingsSection';
import { MemorySection } from './sections/MemorySection';
import { useSettings } from './store';
import './settings.css';

/**
 * The Settings page, one section per entry: a section is one component file
 * (here or in its feature's folder) mounted by one line below. A section with
 * a form of its own registers its unsaved edits with `useUnsavedChanges`
 * (stores/unsaved.ts) so leaving the page asks first. See docs/settings.md.
 */
const SECTIONS: SettingsSectionDef[] = [
  { id: 'chat', title: 'Chat model', description: 'OpenAI, or any OpenAI-compatible server (Ollama, llama.cpp, LM Studio).', Section: ChatSection },
  { id: 'embeddings', title: 'Embeddings', description: 'What turns text into vectors for search by meaning.', Section: EmbeddingsSection },
  { id: 'memory', title: 'Memory and context', Section: MemorySection },
  { id: 'appearance', title: 'Appearance', description: 'Light, dark, or as your computer is set.', Section: AppearanceSection },
  { id: 'connections', title: 'Connections', description: 'Other AI tools using this memory over the Model Context Protocol (MCP).', Section: ConnectionsSection },
  { id: 'data', title: 'Data', description: 'Where your data is kept (this computer or a PostgreSQL server), backups, restore, and an integrity check.', Section: DataSection },
];

export function SettingsView() {
  useEffect(() => void useSettings.getState().load(), []);
  const keyStorage = useSettings((s) => s.settings?.keyStorage);
  return (
    <section className="view settings-view" data-testid="settings-view" aria-labelledby="settings-title">
      <header className="view-header">
        <div>
          <h1 id="settings-title">Settings</h1>
          <p className="muted">Saved per section. API keys are write-only: once saved, they are never shown again.</p>
          {keyStorage && (
            <p className="muted" data-testid="key-storage">
              Where keys are kept: {keyStorage}
            </p>
          )}
        </div>
      </header>
      <nav className="settings-toc" aria-label="Settings sections">
        {SECTIONS.map((s) => (
          <a key={s.id} href={`#settings-${s.id}`} onClick={(e) => (e.preventDefault(), jumpTo(s.id))}>
            {s.title}
          </a>
        ))}
      </nav>
      <div className="settings-sections">
        {SECTIONS.map((s) => (
          <SectionFrame key={s.id} def={s} />
        ))}
      </div>
    </section>
  );
}

// The URL hash holds the current view, so section links scroll instead of navigating. Only the
// settings pane scrolls: scrollIntoView would also scroll the window and the main area (their
// overflow is hidden, not unscrollable), taking the sidebar off the top and leaving a blank band below.
function jumpTo(id: string): void {
  const el = document.getElementById(`settings-${id}`);
  const pane = el?.closest<HTMLElement>('.settings-view');
  if (el && pane) {
    const margin = parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
    pane.scrollTo({ top: pane.scrollTop + el.getBoundingClientRect().top - pane.getBoundingClientRect().top - margin });
  }
  el?.querySelector<HTMLElement>('input, button, select, textarea')?.focus({ preventScroll: true });
}
