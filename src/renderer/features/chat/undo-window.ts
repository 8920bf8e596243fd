import { getApi } from '../../api';
import { reportError, useToasts } from '../../stores/toasts';
import { type ChatGet, type ChatSet, type ChatState, here, type Pending } from './state';

/**
 * How long a clear or a conversation delete can be undone. Nothing is deleted before:
 * the transcript (or the list entry) is hidden at once and the call goes out when the
 * toast does, so Undo never has to rebuild anything.
 */
export const UNDO_MS = 6000;

/** Clearing a transcript and deleting a conversation, each held back while Undo is offered. */
export function undoWindowActions(set: ChatSet, get: ChatGet): Pick<ChatState, 'remove' | 'clear' | 'undo' | 'commitPending'> {
  function startPending(p: Omit<Pending, 'timer' | 'toast'>, message: string): void {
    const toast = useToasts.getState().push({ kind: 'info', message, ttl: UNDO_MS, action: { label: 'Undo', run: () => get().undo() } });
    const timer = setTimeout(() => void get().commitPending(), UNDO_MS);
    set({ pending: { ...p, timer, toast } });
  }

  return {
    remove(conversation) {
      const persona = get().persona;
      if (!persona || get().busy) return;
      void get()
        .commitPending()
        .then(() => {
          const { conversations, messages, summary } = get();
          const rest = conversations.filter((c) => c.id !== conversation);
          startPending({ kind: 'delete', persona, conversation, messages, summary, conversations }, 'Conversation deleted.');
          set({ conversations: rest });
          if (get().conversation === conversation) {
            const next = rest[0];
            if (next) void get().select(next.id);
            else set({ conversation: null, messages: [], summary: '' });
          }
        });
    },

    clear() {
      const at = here(get);
      if (!at) return;
      if (get().busy) {
        set({ error: { code: 'busy', message: 'Stop the current reply before clearing the conversation.' } });
        return;
      }
      void get()
        .commitPending()
        .then(() => {
          const { messages, summary, conversations } = get();
          startPending({ kind: 'clear', ...at, messages, summary, conversations }, 'Conversation cleared. Memories stay.');
          set({ messages: [], summary: '', error: null });
        });
    },

    undo() {
      const p = get().pending;
      if (!p) return;
      clearTimeout(p.timer);
      set({ pending: null });
      if (get().persona !== p.persona) return;
      if (p.kind === 'clear' && get().conversation === p.conversation) set({ messages: p.messages, summary: p.summary });
      if (p.kind === 'delete') {
        set({ conversations: p.conversations, conversation: p.conversation, messages: p.messages, summary: p.summary });
      }
    },

    async commitPending() {
      const p = get().pending;
      if (!p) return;
      clearTimeout(p.timer);
      useToasts.getState().dismiss(p.toast);
      set({ pending: null });
      try {
        if (p.kind === 'clear') await getApi().invoke('chat.clear', { persona: p.persona, conversation: p.conversation });
        else await getApi().invoke('conversations.delete', { persona: p.persona, id: p.conversation });
        if (get().prompt) void get().loadPrompt();
      } catch (e) {
        reportError(e, p.kind === 'clear' ? 'Could not clear the conversation' : 'Could not delete the conversation');
        if (get().persona === p.persona) void get().open(p.persona);
      }
    },
  };
}
