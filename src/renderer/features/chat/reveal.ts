import { useNav } from '../../stores/nav';
import { useMemories } from '../memories/store';

/**
 * A memory chip's link: opens the memory browser on the persona showing that memory. A search
 * left there from before would hide it, so the search is cleared; the memory's row is then
 * highlighted and scrolled to, or, when the list on screen does not hold it (filtered out, or
 * beyond the loaded pages), it opens above the list as a linked memory.
 */
export function revealMemory(persona: string, id: string): void {
  const memories = useMemories.getState();
  memories.open(persona);
  memories.clearSearch();
  memories.setEditing(null);
  memories.setHighlight(id);
  useNav.getState().go('memories');
  const show = () => {
    const s = useMemories.getState();
    if (!s.items.some((m) => m.id === id)) void s.focus(id);
    else if (s.focused?.id !== id) void s.focus(null);
  };
  if (useMemories.getState().loaded) return show();
  const off = useMemories.subscribe((s) => {
    if (!s.loaded) return;
    off();
    show();
  });
}
