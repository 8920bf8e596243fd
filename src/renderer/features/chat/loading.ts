import { getApi } from '../../api';
import type { ChatGet, ChatSet } from './state';

/** The persona's conversation list; one whose delete can still be undone stays hidden. */
export async function refreshList(set: ChatSet, get: ChatGet, persona: string): Promise<void> {
  const list = await getApi().invoke('conversations.list', { persona });
  const p = get().pending;
  if (get().persona === persona) set({ conversations: p?.kind === 'delete' ? list.filter((c) => c.id !== p.conversation) : list });
}

/** One conversation's transcript onto the screen (the persona's current one when none is named). */
export async function load(set: ChatSet, get: ChatGet, persona: string, conversation: string | undefined): Promise<void> {
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
