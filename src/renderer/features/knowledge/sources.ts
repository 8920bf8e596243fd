import { getApi } from '../../api';
import { plural } from '../../lib/format';
import { reportError, useToasts } from '../../stores/toasts';
import type { KnowledgeGet, KnowledgeSet, KnowledgeState } from './state';

const UNDO_MS = 6000;

/** The persona's list of sources, deleting one into the trash (with Undo), and searching their text. */
export function sourceActions(set: KnowledgeSet, get: KnowledgeGet): Pick<KnowledgeState, 'open' | 'reload' | 'remove' | 'search'> {
  return {
    open(persona) {
      if (get().persona !== persona) set({ persona, sources: [], loaded: false, query: '', hits: null });
      void get().reload();
    },

    async reload() {
      const persona = get().persona;
      if (!persona) return;
      try {
        const sources = await getApi().invoke('knowledge.listSources', { persona });
        if (get().persona === persona) set({ sources, loaded: true });
      } catch (e) {
        set({ loaded: true });
        reportError(e, 'Could not list the knowledge sources');
      }
    },

    async remove(source) {
      const persona = get().persona;
      if (!persona) return false;
      try {
        const { deleted, trashId } = await getApi().invoke('knowledge.deleteSource', { persona, source });
        useToasts.getState().push({
          kind: 'info',
          message: `Deleted "${source}" (${plural(deleted, 'chunk')}); it is in the trash.`,
          ttl: UNDO_MS,
          ...(trashId
            ? {
                action: {
                  label: 'Undo',
                  run: () =>
                    void getApi()
                      .invoke('trash.restore', { id: trashId })
                      .then(() => (get().persona === persona ? get().reload() : undefined))
                      .catch((e: unknown) => reportError(e, `Could not restore "${source}"`)),
                },
              }
            : {}),
        });
        set((s) => ({ sources: s.sources.filter((x) => x.source !== source) }));
        return true;
      } catch (e) {
        reportError(e, `Could not delete "${source}"`);
        return false;
      }
    },

    async search(query) {
      const persona = get().persona;
      set({ query });
      if (!persona || !query.trim()) {
        set({ hits: null, searching: false });
        return;
      }
      set({ searching: true });
      try {
        const hits = await getApi().invoke('recall', { persona, query, limit: 10, kinds: ['knowledge'] });
        if (get().query === query) set({ hits });
      } catch (e) {
        reportError(e, 'Search failed');
      } finally {
        if (get().query === query) set({ searching: false });
      }
    },
  };
}
