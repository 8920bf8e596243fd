import { useNav } from '../../stores/nav';
import { useMemories } from '../memories/store';

/**
 * A memory chip's link: opens the memory browser on the persona and opens
 * that memory in its editor once the list has loaded (opening resets the editor).
 */
export function revealMemory(persona: string, id: string): void {
  const memories = useMemories.getState();
  memories.open(persona);
  useNav.getState().go('memories');
  const show = () => useMemories.getState().setEditing(id);
  if (useMemories.getState().loaded) return show();
  const off = useMemories.subscribe((s) => {
    if (!s.loaded) return;
    off();
    show();
  });
}
