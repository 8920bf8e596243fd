import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import type { KnowledgeGet, KnowledgeSet, KnowledgeState } from './state';

/** "handbook.pdf" → "handbook (2).pdf", the first such name not taken. */
export function freeName(name: string, taken: string[]): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const used = new Set(taken);
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Added files whose names are already sources wait for the person's choice: Replace, Keep both or Skip. */
export function conflictActions(set: KnowledgeSet, get: KnowledgeGet): Pick<KnowledgeState, 'addFiles' | 'resolveConflict'> {
  return {
    async addFiles(persona, files) {
      let taken: string[];
      try {
        // Read fresh: the drop may come from another view, for a persona whose sources are not loaded.
        taken = (await getApi().invoke('knowledge.listSources', { persona })).map((x) => x.source);
      } catch (e) {
        reportError(e, 'Could not check the knowledge sources');
        return;
      }
      const names = new Set(taken);
      const fresh = files.filter((f) => !names.has(f.name));
      const clashing = files.filter((f) => names.has(f.name));
      if (clashing.length) set((s) => ({ conflicts: [...s.conflicts, ...clashing.map((file) => ({ persona, file, taken }))] }));
      if (fresh.length) await get().ingestFiles(persona, fresh);
    },

    resolveConflict(choice) {
      const [first, ...rest] = get().conflicts;
      if (!first) return;
      set({ conflicts: rest });
      if (choice === 'replace') void get().ingestFiles(first.persona, [first.file], first.file.name);
      if (choice === 'keep-both') {
        const taken = [...first.taken, ...get().ingests.map((i) => i.source)];
        void get().ingestFiles(first.persona, [first.file], freeName(first.file.name, taken));
      }
    },
  };
}
