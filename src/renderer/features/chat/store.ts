import { create } from 'zustand';
import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { incognitoActions } from './incognito';
import { type ChatState, here } from './state';
import { streamActions } from './stream';
import { switchingActions } from './switching';
import { turnActions } from './turns';
import { undoWindowActions } from './undo-window';

export type { ChatState } from './state';
export { UNDO_MS } from './undo-window';

/** The Chat view's state; each step's actions live in the module named for it. */
export const useChat = create<ChatState>((set, get) => ({
  persona: null,
  conversation: null,
  conversations: [],
  messages: [],
  summary: '',
  busy: false,
  error: null,
  configured: null,
  prompt: null,
  drafts: {},
  pending: null,
  found: null,

  ...switchingActions(set, get),
  ...incognitoActions(set, get),
  ...turnActions(set, get),
  ...streamActions(set, get),
  ...undoWindowActions(set, get),

  setDraft(conversation, text) {
    set((s) => ({ drafts: { ...s.drafts, [conversation]: text } }));
  },

  async loadPrompt() {
    const at = here(get);
    if (!at) return;
    try {
      set({ prompt: await getApi().invoke('chat.prompt', at) });
    } catch (e) {
      set({ error: errorInfo(e) });
    }
  },

  closePrompt() {
    set({ prompt: null });
  },
}));
