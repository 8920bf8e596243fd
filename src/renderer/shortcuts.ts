import { useEffect } from 'react';
import { useMemories } from './features/memories/store';
import { isTyping } from './lib/keys';
import { useNav, type View } from './stores/nav';
import { usePersonas } from './stores/personas';

const GO: Record<string, View> = { c: 'chat', m: 'memories', u: 'userModel', k: 'knowledge', a: 'activity', t: 'trash', j: 'jobs', s: 'settings' };

/** Window-wide keys: Alt+digit personas, / and Ctrl+K search, n new memory, g-prefixed navigation, ? help. */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    let pendingG = 0;
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented) return;
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^Digit[1-9]$/.test(e.code)) {
        const p = usePersonas.getState().personas[Number(e.code.slice(5)) - 1];
        if (p) {
          e.preventDefault();
          usePersonas.getState().setActive(p.id);
        }
        return;
      }
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        focusSearch();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // In a text field every key is text, the second key of a `g x` too: the focused element is
      // checked as well as the event's target (focus may have moved into a field since the `g`).
      if (isTyping(e.target) || isTyping(document.activeElement)) {
        pendingG = 0;
        return;
      }
      if (document.querySelector('dialog[open]')) return;
      if (pendingG && Date.now() - pendingG < 1000 && GO[e.key]) {
        pendingG = 0;
        e.preventDefault();
        useNav.getState().go(GO[e.key]!);
        return;
      }
      pendingG = 0;
      if (e.key === 'g') pendingG = Date.now();
      else if (e.key === '/') {
        e.preventDefault();
        focusSearch();
      } else if (e.key === 'n') {
        e.preventDefault();
        useNav.getState().go('memories');
        useMemories.getState().setComposing(true);
      } else if (e.key === '?') {
        e.preventDefault();
        useNav.getState().setHelp(true);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function focusSearch(): void {
  useNav.getState().go('memories');
  // After the view mounts (it may not be on screen yet).
  requestAnimationFrame(() => useMemories.getState().requestSearchFocus());
}
