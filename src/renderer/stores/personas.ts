import { create } from 'zustand';
import type { Persona } from '../../shared/api';
import { getApi } from '../api';
import { reportError } from './toasts';
import { useUnsaved } from './unsaved';

const ACTIVE_KEY = 'hearth.activePersona';

function rememberedPersona(): string {
  try {
    return window.localStorage.getItem(ACTIVE_KEY) ?? 'main';
  } catch {
    // Storage can be disabled by the browser; the default persona is a fine start.
    return 'main';
  }
}

interface PersonaState {
  personas: Persona[];
  activeId: string;
  loaded: boolean;
  load(): Promise<void>;
  setActive(id: string): void;
  /** Switches without asking (the persona being left is gone, or nothing is unsaved). */
  forceActive(id: string): void;
  create(name: string, avatar?: string | null): Promise<Persona | null>;
  /** `avatar` undefined keeps the current one; null goes back to the name's first character. */
  rename(id: string, name: string, avatar?: string | null): Promise<boolean>;
  /** Throws what went wrong: the delete dialog shows it in place (a failed backup deleted nothing). */
  remove(id: string, confirm: string): Promise<Persona['counts']>;
}

let loadSeq = 0;
let shownSeq = 0;

export const usePersonas = create<PersonaState>((set, get) => ({
  personas: [],
  activeId: rememberedPersona(),
  loaded: false,

  async load() {
    // Loads overlap while changes stream in: an answer older than one already shown is dropped (but a newer
    // one is shown even while later loads are still out, or a slow list would never show at all).
    const mine = ++loadSeq;
    try {
      const personas = await getApi().invoke('personas.list', {});
      if (mine < shownSeq) return;
      shownSeq = mine;
      const { activeId } = get();
      // A remembered persona that no longer exists falls back to main.
      const active = personas.some((p) => p.id === activeId) ? activeId : (personas[0]?.id ?? 'main');
      set({ personas, loaded: true });
      if (active !== activeId) get().forceActive(active);
    } catch (e) {
      set({ loaded: true });
      reportError(e, 'Could not load personas');
    }
  },

  setActive(id) {
    if (id === get().activeId) return;
    // Every view remounts for the new persona: unsaved edits would go with it.
    useUnsaved.getState().request(() => get().forceActive(id));
  },

  forceActive(id) {
    try {
      window.localStorage.setItem(ACTIVE_KEY, id);
    } catch (e) {
      reportError(e, 'Could not remember the active persona');
    }
    set({ activeId: id });
  },

  async create(name, avatar = null) {
    try {
      const persona = await getApi().invoke('personas.create', { name, avatar });
      await get().load();
      get().setActive(persona.id);
      return persona;
    } catch (e) {
      reportError(e, 'Could not create the persona');
      return null;
    }
  },

  async rename(id, name, avatar) {
    try {
      await getApi().invoke('personas.rename', avatar === undefined ? { id, name } : { id, name, avatar });
      await get().load();
      return true;
    } catch (e) {
      reportError(e, 'Could not rename the persona');
      return false;
    }
  },

  async remove(id, confirm) {
    const { deleted } = await getApi().invoke('personas.delete', { id, confirm });
    if (get().activeId === id && id !== 'main') get().forceActive('main');
    await get().load();
    return deleted;
  },
}));

export function useActivePersona(): Persona | undefined {
  return usePersonas((s) => s.personas.find((p) => p.id === s.activeId));
}
