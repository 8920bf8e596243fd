import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { reportError } from '../../stores/toasts';
import { leaveIncognito } from './incognito';
import { load, refreshList } from './loading';
import type { ChatGet, ChatSet, ChatState } from './state';

/** Moving between personas and conversations: entering Chat, picking, starting and renaming a conversation. */
export function switchingActions(set: ChatSet, get: ChatGet): Pick<ChatState, 'reveal' | 'open' | 'select' | 'newChat' | 'rename'> {
  return {
    async reveal(conversation, message) {
      if (conversation !== get().conversation) await get().select(conversation);
      if (get().conversation === conversation) set({ found: message });
    },

    async open(persona) {
      // Coming back to the view (or to another persona) ends an undo window first.
      await get().commitPending();
      if (get().persona !== persona) await leaveIncognito(set, get);
      const keep = get().persona === persona ? get().conversation : null;
      set({ persona, messages: [], summary: '', error: null, prompt: null, busy: false, ...(keep ? {} : { conversation: null, conversations: [] }) });
      try {
        const [settings] = await Promise.all([getApi().invoke('settings.get', {}), load(set, get, persona, keep ?? undefined), refreshList(set, get, persona)]);
        if (get().persona === persona) set({ configured: Boolean(settings.chat.model) });
      } catch (e) {
        if (keep) {
          // The conversation was deleted elsewhere: fall back to the current one.
          set({ conversation: null });
          return get().open(persona);
        }
        set({ error: errorInfo(e) });
      }
    },

    async select(conversation) {
      const persona = get().persona;
      if (!persona || conversation === get().conversation) return;
      await get().commitPending();
      if (!(await leaveIncognito(set, get))) return;
      set({ conversation, messages: [], summary: '', error: null, found: null });
      try {
        await load(set, get, persona, conversation);
      } catch (e) {
        reportError(e, 'Could not open the conversation');
        void refreshList(set, get, persona);
      }
    },

    async newChat(incognito = false) {
      const persona = get().persona;
      if (!persona) return;
      await get().commitPending();
      if (!(await leaveIncognito(set, get))) return;
      try {
        const created = await getApi().invoke('conversations.create', { persona, ...(incognito ? { incognito } : {}) });
        if (get().persona !== persona) return;
        set((s) => ({ conversation: created.id, conversations: [created, ...s.conversations], messages: [], summary: '', error: null, prompt: null }));
      } catch (e) {
        reportError(e, 'Could not start a new chat');
      }
    },

    async rename(conversation, title) {
      const persona = get().persona;
      if (!persona) return false;
      try {
        const updated = await getApi().invoke('conversations.rename', { persona, id: conversation, title });
        set((s) => ({ conversations: s.conversations.map((c) => (c.id === updated.id ? updated : c)) }));
        return true;
      } catch (e) {
        reportError(e, 'Could not rename the conversation');
        return false;
      }
    },
  };
}
