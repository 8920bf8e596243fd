import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { refreshList } from './loading';
import { type ChatGet, type ChatSet, type ChatState, here } from './state';
import type { ChatMessage } from '../../../shared/api';

/** Where the newest question not yet folded into the summary is (-1: none): Retry and Edit start from it. */
function lastQuestion(messages: ChatMessage[]): number {
  return messages.findLastIndex((m) => m.role === 'user' && !m.folded);
}

/** Asking: a new message, a retry, an edit of the last question, and stopping a reply. */
export function turnActions(set: ChatSet, get: ChatGet): Pick<ChatState, 'send' | 'retry' | 'edit' | 'cancel'> {
  /** Retry and Edit: the turn answers the question again; a stop by the person is not an error. */
  async function answerAgain(call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      if (get().prompt) void get().loadPrompt();
    } catch (e) {
      const error = errorInfo(e);
      if (error.code !== 'cancelled') set({ error });
    } finally {
      set({ busy: false });
    }
  }

  return {
    async send(text) {
      const persona = get().persona;
      if (!persona || get().busy) return;
      await get().commitPending();
      set({ found: null });
      if (!get().conversation) await get().newChat();
      const conversation = get().conversation;
      if (!conversation) return;
      set({ busy: true, error: null });
      try {
        await getApi().invoke('chat.send', { persona, conversation, text });
        if (get().prompt) void get().loadPrompt();
      } catch (e) {
        const error = errorInfo(e);
        // A stopped reply is the person's own doing: the transcript marks it, no banner.
        if (error.code !== 'cancelled') set({ error, ...(error.code === 'not_configured' ? { configured: false } : {}) });
      } finally {
        set({ busy: false });
        void refreshList(set, get, persona).catch(() => undefined);
      }
    },

    async retry() {
      const at = here(get);
      if (!at || get().busy) return;
      // What followed the last question goes (the core removes it too), so the new answer takes its place.
      set((s) => {
        const last = lastQuestion(s.messages);
        return { busy: true, error: null, messages: last < 0 ? s.messages : s.messages.slice(0, last + 1) };
      });
      await answerAgain(() => getApi().invoke('chat.retry', at));
    },

    async edit(text) {
      const at = here(get);
      if (!at || get().busy) return;
      // The question shows as rewritten and what followed it goes (the core does the same).
      set((s) => {
        const last = lastQuestion(s.messages);
        if (last < 0) return {};
        return { busy: true, error: null, found: null, messages: [...s.messages.slice(0, last), { ...s.messages[last]!, content: text }] };
      });
      await answerAgain(() => getApi().invoke('chat.edit', { ...at, text }));
    },

    async cancel() {
      const persona = get().persona;
      if (persona) await getApi().invoke('chat.cancel', { persona });
    },
  };
}
