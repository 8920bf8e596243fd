import { create } from 'zustand';
import type { ChatMessage, ChatPrompt, ConversationInfo, Events } from '../../../shared/api';
import { getApi } from '../../api';
import { type ErrorInfo, errorInfo } from '../../lib/errors';
import { reportError, useToasts } from '../../stores/toasts';

/**
 * How long a clear or a conversation delete can be undone. Nothing is deleted before:
 * the transcript (or the list entry) is hidden at once and the call goes out when the
 * toast does, so Undo never has to rebuild anything.
 */
export const UNDO_MS = 6000;

interface Pending {
  kind: 'clear' | 'delete';
  persona: string;
  conversation: string;
  timer: ReturnType<typeof setTimeout>;
  toast: number;
  /** What the view showed before, put back on Undo. */
  messages: ChatMessage[];
  summary: string;
  conversations: ConversationInfo[];
}

interface ChatState {
  persona: string | null;
  /** The conversation on screen (one of the persona's), null until loaded. */
  conversation: string | null;
  conversations: ConversationInfo[];
  messages: ChatMessage[];
  summary: string;
  busy: boolean;
  error: ErrorInfo | null;
  /** null until settings are read; false shows how to configure a chat model. */
  configured: boolean | null;
  prompt: ChatPrompt | null;
  /** Unsent text per conversation, kept while the person looks at other views or conversations. */
  drafts: Record<string, string>;
  pending: Pending | null;
  /** A message a conversation search opened: scrolled to and marked until the person moves on. */
  found: string | null;
  /** Opens a conversation at one of its messages (a search hit). */
  reveal(conversation: string, message: string): Promise<void>;
  open(persona: string): Promise<void>;
  select(conversation: string): Promise<void>;
  /** A new conversation; an incognito one reads the persona's memory, writes none of it, and is deleted when left. */
  newChat(incognito?: boolean): Promise<void>;
  /** Deletes an incognito conversation (by default the one on screen, then back to the current one). */
  closeIncognito(id?: string): Promise<void>;
  rename(conversation: string, title: string): Promise<boolean>;
  /** Hides the conversation at once; it is deleted when Undo is no longer offered. */
  remove(conversation: string): void;
  setDraft(conversation: string, text: string): void;
  send(text: string): Promise<void>;
  /** Answers the last user message again: Retry after a failure, Regenerate after an answer. */
  retry(): Promise<void>;
  /** Rewrites the last user message and answers it again. */
  edit(text: string): Promise<void>;
  cancel(): Promise<void>;
  /** Empties the transcript at once; the conversation is really cleared when Undo is no longer offered. */
  clear(): void;
  undo(): void;
  commitPending(): Promise<void>;
  loadPrompt(): Promise<void>;
  closePrompt(): void;
  onToken(e: Events['chat.token']): void;
  onMessage(e: Events['chat.message']): void;
  onState(e: Events['chat.state']): void;
}

/** Where the newest question not yet folded into the summary is (-1: none): Retry and Edit start from it. */
function lastQuestion(messages: ChatMessage[]): number {
  return messages.findLastIndex((m) => m.role === 'user' && !m.folded);
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

export const useChat = create<ChatState>((set, get) => {
  /** The persona and conversation on screen, or null when either is not loaded yet. */
  const here = () => {
    const { persona, conversation } = get();
    return persona && conversation ? { persona, conversation } : null;
  };

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

  async function refreshList(persona: string): Promise<void> {
    const list = await getApi().invoke('conversations.list', { persona });
    const p = get().pending;
    if (get().persona === persona) set({ conversations: p?.kind === 'delete' ? list.filter((c) => c.id !== p.conversation) : list });
  }

  async function load(persona: string, conversation: string | undefined): Promise<void> {
    const history = await getApi().invoke('chat.history', { persona, ...(conversation ? { conversation } : {}) });
    if (get().persona !== persona) return;
    const p = get().pending;
    if (p?.kind === 'clear' && p.persona === persona && p.conversation === history.conversation) {
      // Cleared while it was still loading (a quick /clear on coming back to the view): the screen stays
      // cleared, and what loaded is what Undo brings back.
      set({ pending: { ...p, messages: history.messages, summary: history.summary }, messages: [], summary: '', prompt: null });
      return;
    }
    // A draft typed while the current conversation was still unknown (right after entering Chat) moves to it.
    const drafts = get().drafts;
    const early = get().conversation === null && history.conversation ? drafts[`${persona}/new`] : undefined;
    const moved = early && !drafts[`${persona}/${history.conversation}`] ? { drafts: { ...drafts, [`${persona}/new`]: '', [`${persona}/${history.conversation}`]: early } } : {};
    set({ messages: history.messages, summary: history.summary, conversation: history.conversation, prompt: null, ...moved });
  }

  /**
   * Leaving an incognito conversation (for another one, a new chat, another persona, or by
   * closing it) deletes it (docs/privacy.md). False when it could not be closed (a reply runs).
   */
  async function leaveIncognito(): Promise<boolean> {
    const { persona, conversation, conversations } = get();
    if (!persona || !conversation || !conversations.find((c) => c.id === conversation)?.incognito) return true;
    try {
      await getApi().invoke('conversations.close', { persona, id: conversation });
    } catch (e) {
      reportError(e, 'Could not close the incognito chat');
      return false;
    }
    set((s) => ({ conversations: s.conversations.filter((c) => c.id !== conversation), ...(s.conversation === conversation ? { conversation: null, messages: [], summary: '' } : {}) }));
    return true;
  }

  function startPending(p: Omit<Pending, 'timer' | 'toast'>, message: string): void {
    const toast = useToasts.getState().push({ kind: 'info', message, ttl: UNDO_MS, action: { label: 'Undo', run: () => get().undo() } });
    const timer = setTimeout(() => void get().commitPending(), UNDO_MS);
    set({ pending: { ...p, timer, toast } });
  }

  return {
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

    async reveal(conversation, message) {
      if (conversation !== get().conversation) await get().select(conversation);
      if (get().conversation === conversation) set({ found: message });
    },

    async open(persona) {
      // Coming back to the view (or to another persona) ends an undo window first.
      await get().commitPending();
      if (get().persona !== persona) await leaveIncognito();
      const keep = get().persona === persona ? get().conversation : null;
      set({ persona, messages: [], summary: '', error: null, prompt: null, busy: false, ...(keep ? {} : { conversation: null, conversations: [] }) });
      try {
        const [settings] = await Promise.all([getApi().invoke('settings.get', {}), load(persona, keep ?? undefined), refreshList(persona)]);
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
      if (!(await leaveIncognito())) return;
      set({ conversation, messages: [], summary: '', error: null, found: null });
      try {
        await load(persona, conversation);
      } catch (e) {
        reportError(e, 'Could not open the conversation');
        void refreshList(persona);
      }
    },

    async newChat(incognito = false) {
      const persona = get().persona;
      if (!persona) return;
      await get().commitPending();
      if (!(await leaveIncognito())) return;
      try {
        const created = await getApi().invoke('conversations.create', { persona, ...(incognito ? { incognito } : {}) });
        if (get().persona !== persona) return;
        set((s) => ({ conversation: created.id, conversations: [created, ...s.conversations], messages: [], summary: '', error: null, prompt: null }));
      } catch (e) {
        reportError(e, 'Could not start a new chat');
      }
    },

    async closeIncognito(id) {
      const persona = get().persona;
      if (persona && id && id !== get().conversation) {
        // One left over from an earlier page (a reload keeps it until it is closed or Hearth restarts).
        try {
          await getApi().invoke('conversations.close', { persona, id });
          set((s) => ({ conversations: s.conversations.filter((c) => c.id !== id) }));
        } catch (e) {
          reportError(e, 'Could not close the incognito chat');
        }
        return;
      }
      if (!persona || !(await leaveIncognito())) return;
      try {
        await load(persona, undefined);
      } catch (e) {
        set({ error: errorInfo(e) });
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

    setDraft(conversation, text) {
      set((s) => ({ drafts: { ...s.drafts, [conversation]: text } }));
    },

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
        void refreshList(persona).catch(() => undefined);
      }
    },

    async retry() {
      const at = here();
      if (!at || get().busy) return;
      // What followed the last question goes (the core removes it too), so the new answer takes its place.
      set((s) => {
        const last = lastQuestion(s.messages);
        return { busy: true, error: null, messages: last < 0 ? s.messages : s.messages.slice(0, last + 1) };
      });
      await answerAgain(() => getApi().invoke('chat.retry', at));
    },

    async edit(text) {
      const at = here();
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

    clear() {
      const at = here();
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

    async loadPrompt() {
      const at = here();
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
});
