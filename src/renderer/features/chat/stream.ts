import type { ChatMessage } from '../../../shared/api';
import type { ChatGet, ChatSet, ChatState } from './state';

function upsert(messages: ChatMessage[], m: ChatMessage): ChatMessage[] {
  const i = messages.findIndex((x) => x.id === m.id);
  if (i < 0) return [...messages, m];
  const next = messages.slice();
  next[i] = m;
  return next;
}

function streamingPlaceholder(id: string): ChatMessage {
  return { id, role: 'assistant', content: '', toolCalls: null, toolCallId: null, memoryIds: null, folded: false, createdAt: new Date().toISOString() };
}

/** A reply arriving: its tokens, its finished messages and the persona's busy state, from the core's events. */
export function streamActions(set: ChatSet, get: ChatGet): Pick<ChatState, 'onToken' | 'onMessage' | 'onState'> {
  return {
    onToken(e) {
      if (e.persona !== get().persona || e.conversation !== get().conversation) return;
      set((s) => {
        const current = s.messages.find((m) => m.id === e.messageId) ?? streamingPlaceholder(e.messageId);
        return { messages: upsert(s.messages, { ...current, content: current.content + e.delta }) };
      });
    },

    onMessage(e) {
      if (e.persona !== get().persona || e.conversation !== get().conversation) return;
      set((s) => ({ messages: upsert(s.messages, e.message) }));
    },

    onState(e) {
      if (e.persona !== get().persona) return;
      // Busy is per persona (one reply at a time); the error belongs to the conversation it happened in.
      const mine = !e.conversation || e.conversation === get().conversation;
      set({ busy: e.busy, ...(mine && e.error && e.error.code !== 'cancelled' ? { error: e.error } : {}) });
    },
  };
}
