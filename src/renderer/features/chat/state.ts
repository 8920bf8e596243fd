import type { StoreApi } from 'zustand';
import type { ChatMessage, ChatPrompt, ConversationInfo, Events } from '../../../shared/api';
import type { ErrorInfo } from '../../lib/errors';

/** A clear or a conversation delete waiting for its undo window to close. */
export interface Pending {
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

export interface ChatState {
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

export type ChatSet = StoreApi<ChatState>['setState'];
export type ChatGet = StoreApi<ChatState>['getState'];

/** The persona and conversation on screen, or null when either is not loaded yet. */
export function here(get: ChatGet): { persona: string; conversation: string } | null {
  const { persona, conversation } = get();
  return persona && conversation ? { persona, conversation } : null;
}
