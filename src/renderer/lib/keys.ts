import type { KeyboardEvent } from 'react';

/** True while the user types in a field: single-key shortcuts must stay out of the way. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/** An inline editor's keys, as the `?` sheet lists them: Esc cancels, Ctrl+Enter (Cmd+Enter on a Mac) saves from any field. */
export function editorKeys(onCancel: () => void, onSave: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSave();
    }
  };
}
