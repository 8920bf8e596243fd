import { useEffect, useRef } from 'react';
import { useNav, VIEW_LABELS } from '../stores/nav';

/**
 * On a narrow window the sidebar is a drawer: this bar (shown only there, by CSS) holds the button
 * that opens it and names the current view. Esc or a click beside the drawer closes it, and focus
 * goes back to the button (docs/ui.md).
 */
export function MenuBar() {
  const open = useNav((s) => s.menuOpen);
  const view = useNav((s) => s.view);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    if (open) {
      // Into the drawer: its current view first, so Tab goes on from there.
      const sidebar = document.getElementById('sidebar');
      (sidebar?.querySelector<HTMLElement>('.nav-item.active') ?? sidebar?.querySelector<HTMLElement>('button'))?.focus();
      const onKey = (e: KeyboardEvent) => {
        if (e.key === 'Escape' && !document.querySelector('dialog[open]')) {
          e.preventDefault();
          useNav.getState().setMenu(false);
        }
      };
      window.addEventListener('keydown', onKey);
      wasOpen.current = true;
      return () => window.removeEventListener('keydown', onKey);
    }
    // Closed by Esc or the backdrop: focus back on the button, unless a view took it on purpose.
    if (wasOpen.current && (document.activeElement === document.body || document.getElementById('sidebar')?.contains(document.activeElement))) button.current?.focus();
    wasOpen.current = false;
    return undefined;
  }, [open]);

  return (
    <div className="menu-bar" data-testid="menu-bar">
      <button
        ref={button}
        className="menu-button"
        data-testid="menu-button"
        aria-expanded={open}
        aria-controls="sidebar"
        onClick={() => useNav.getState().setMenu(!open)}
      >
        <span aria-hidden>☰</span> Menu
      </button>
      <span className="menu-bar-title">
        <span className="brand-mark" aria-hidden>
          ◆
        </span>{' '}
        Hearth · {VIEW_LABELS[view]}
      </span>
    </div>
  );
}

/** The dimmed window beside the open drawer; a click on it closes the drawer. */
export function MenuBackdrop() {
  const open = useNav((s) => s.menuOpen);
  if (!open) return null;
  return <div className="menu-backdrop" data-testid="menu-backdrop" aria-hidden onClick={() => useNav.getState().setMenu(false)} />;
}
