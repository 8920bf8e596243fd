import { create } from 'zustand';
import type { ChatMessage, ChatPrompt, Events } from '../../../shared/api';
import { getApi } from '../../api';
import { type ErrorInfo, errorInfo } from '../../lib/errors';

interface ChatState {
  persona: string | null;
  messages: ChatMessage[];
  summary: string;
  busy: boolean;
  error: ErrorInfo | null;
  /** null until settings are read; false shows how to configure a chat model. */
  configured: boolean | null;
  prompt: ChatPrompt | null;
  open(persona: string): Promise<void>;
  send(text: string): Promise<void>;
  cancel(): Promise<void>;
  clear(): Promise<void>;
  loadPrompt(): Promise<void>;
  closePrompt(): void;
  onToken(e: Events['chat.token']): void;
  onMessage(e: Events['chat.message']): void;
  onState(e: Events['chat.state']): void;
}

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

export const useChat = create<ChatState>((set, get) => ({
  persona: null,
  messages: [],
  summary: '',
  busy: false,
  error: null,
  configured: null,
  prompt: null,

  async open(persona) {
    set({ persona, messages: [], summary: '', error: null, prompt: null, busy: false });
    try {
      const [history, settings] = await Promise.all([
        getApi().invoke('chat.history', { persona }),
        getApi().invoke('settings.get', {}),
      ]);
      if (get().persona !== persona) return;
      set({ messages: history.messages, summary: history.summary, configured: Boolean(settings.chat.model) });
    } catch (e) {
      set({ error: errorInfo(e) });
    }
  },

  async send(text) {
    const persona = get().persona;
    if (!persona || get().busy) return;
    set({ busy: true, error: null });
    try {
      await getApi().invoke('chat.send', { persona, text });
      if (get().prompt) void get().loadPrompt();
    } catch (e) {
      const error = errorInfo(e);
      // A stopped reply is the person's own doing: the transcript marks it, no banner.
      if (error.code !== 'cancelled') set({ error, ...(error.code === 'not_configured' ? { configured: false } : {}) });
    } finally {
      set({ busy: false });
    }
  },

  async cancel() {
    const persona = get().persona;
    if (persona) await getApi().invoke('chat.cancel', { persona });
  },

  async clear() {
    const persona = get().persona;
    if (!persona) return;
    try {
      await getApi().invoke('chat.clear', { persona });
      set({ messages: [], summary: '', error: null });
      if (get().prompt) void get().loadPrompt();
    } catch (e) {
      set({ error: errorInfo(e) });
    }
  },

  async loadPrompt() {
    const persona = get().persona;
    if (!persona) return;
    try {
      set({ prompt: await getApi().invoke('chat.prompt', { persona }) });
    } catch (e) {
      set({ error: errorInfo(e) });
    }
  },

  closePrompt() {
    set({ prompt: null });
  },

  onToken(e) {
    if (e.persona !== get().persona) return;
    set((s) => {
      const current = s.messages.find((m) => m.id === e.messageId) ?? streamingPlaceholder(e.messageId);
      return { messages: upsert(s.messages, { ...current, content: current.content + e.delta }) };
    });
  },

  onMessage(e) {
    if (e.persona !== get().persona) return;
    set((s) => ({ messages: upsert(s.messages, e.message) }));
  },

  onState(e) {
    if (e.persona !== get().persona) return;
    // A stopped turn is the person's own doing: no error banner for it.
    set({ busy: e.busy, ...(e.error && e.error.code !== 'cancelled' ? { error: e.error } : {}) });
  },
}));
