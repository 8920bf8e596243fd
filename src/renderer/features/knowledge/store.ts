import { create } from 'zustand';
import { conflictActions } from './conflicts';
import { ingestActions, progressActions } from './ingest';
import { ingestRows } from './ingest-rows';
import { sourceActions } from './sources';
import type { KnowledgeState } from './state';

export { freeName } from './conflicts';
export type { Ingest, NameConflict } from './state';

/** The Knowledge view's state; each step's actions live in the module named for it. */
export const useKnowledge = create<KnowledgeState>((set, get) => {
  const rows = ingestRows(set, get);
  return {
    persona: null,
    sources: [],
    loaded: false,
    ingests: [],
    query: '',
    hits: null,
    searching: false,
    conflicts: [],

    ...sourceActions(set, get),
    ...conflictActions(set, get),
    ...ingestActions(set, get, rows),
    ...progressActions(set, get, rows),
  };
});
