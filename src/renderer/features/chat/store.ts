import { create } from 'zustand';
import type { ChatMessage, ChatPrompt, Events } from '../../../shared/api';
import { getApi } from '../../api';
import { type ErrorInfo, errorInfo } from '../../lib/errors';
import { reportError, useToasts } from '../../stores/toasts';

/** How long "Conversation cleared" can be undone; the messages are deleted only after it. */
export const CLEAR_UNDO_MS = 6000;

interface PendingClear {
  persona: string;
  messages: ChatMessage[];
  summary: string;
  timer: ReturnType<typeof setTimeout>;
  toast: number;
}

interface ChatState {
  persona: string | null;
  messages: ChatMessage[];
  summary: string;
  busy: boolean;
  error: ErrorInfo | null;
  /** null until settings are read; false shows how to configure a chat model. */
  configured: boolean | null;
  prompt: ChatPrompt | null;
  /** Unsent text per persona, kept while the person looks at other views. */
  drafts: Record<string, string>;
  pendingClear: PendingClear | null;
  open(persona: string): Promise<void>;
  setDraft(persona: string, text: string): void;
  send(text: string): Promise<void>;
  /** Answers the last user message again: Retry after a failure, Regenerate after an answer. */
  retry(): Promise<void>;
  cancel(): Promise<void>;
  /** Empties the transcript at once; the conversation is really cleared when Undo is no longer offered. */
  clear(): void;
  undoClear(): void;
  commitClear(): Promise<void>;
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
  drafts: {},
  pendingClear: null,

  async open(persona) {
    // Switching persona ends the undo window of a clear in the one left behind.
    if (get().pendingClear && get().pendingClear!.persona !== persona) await get().commitClear();
    if (get().pendingClear?.persona === persona) {
      set({ persona, error: null, prompt: null });
      return;
    }
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

  setDraft(persona, text) {
    set((s) => ({ drafts: { ...s.drafts, [persona]: text } }));
  },

  async send(text) {
    const persona = get().persona;
    if (!persona || get().busy) return;
    if (get().pendingClear) await get().commitClear();
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

  async retry() {
    const persona = get().persona;
    if (!persona || get().busy) return;
    // What followed the last question goes (the core removes it too), so the new answer takes its place.
    set((s) => {
      let last = -1;
      s.messages.forEach((m, i) => {
        if (m.role === 'user' && !m.folded) last = i;
      });
      return { busy: true, error: null, messages: last < 0 ? s.messages : s.messages.slice(0, last + 1) };
    });
    try {
      await getApi().invoke('chat.retry', { persona });
      if (get().prompt) void get().loadPrompt();
    } catch (e) {
      const error = errorInfo(e);
      if (error.code !== 'cancelled') set({ error });
    } finally {
      set({ busy: false });
    }
  },

  async cancel() {
    const persona = get().persona;
    if (persona) await getApi().invoke('chat.cancel', { persona });
  },

  clear() {
    const { persona, busy, messages, summary, pendingClear } = get();
    if (!persona || pendingClear) return;
    if (busy) {
      set({ error: { code: 'busy', message: 'Stop the current reply before clearing the conversation.' } });
      return;
    }
    const toast = useToasts.getState().push({
      kind: 'info',
      message: 'Conversation cleared. Memories stay.',
      ttl: CLEAR_UNDO_MS,
      action: { label: 'Undo', run: () => get().undoClear() },
    });
    const timer = setTimeout(() => void get().commitClear(), CLEAR_UNDO_MS);
    set({ messages: [], summary: '', error: null, pendingClear: { persona, messages, summary, timer, toast } });
  },

  undoClear() {
    const p = get().pendingClear;
    if (!p) return;
    clearTimeout(p.timer);
    set({ pendingClear: null, ...(get().persona === p.persona ? { messages: p.messages, summary: p.summary } : {}) });
  },

  async commitClear() {
    const p = get().pendingClear;
    if (!p) return;
    clearTimeout(p.timer);
    useToasts.getState().dismiss(p.toast);
    set({ pendingClear: null });
    try {
      await getApi().invoke('chat.clear', { persona: p.persona });
      if (get().prompt) void get().loadPrompt();
    } catch (e) {
      reportError(e, 'Could not clear the conversation');
      if (get().persona === p.persona) void get().open(p.persona);
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
