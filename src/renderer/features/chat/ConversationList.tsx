import { useState } from 'react';
import type { ConversationInfo } from '../../../shared/api';
import { ConversationSearch } from './ConversationSearch';
import { useChat } from './store';
import { CONVERSATION_TITLE_MAX } from '../../../shared/contract/limits';

/** What a conversation is called in the list: its title, else how it began. */
export function conversationLabel(c: ConversationInfo): string {
  return c.title || c.firstMessage?.replace(/\s+/g, ' ').slice(0, 60) || 'New chat';
}

function Item({ c, active }: { c: ConversationInfo; active: boolean }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(c.title);
  const busy = useChat((s) => s.busy);

  async function save() {
    if (await useChat.getState().rename(c.id, title)) setEditing(false);
  }

  if (editing) {
    return (
      <li className="conv-item editing" data-testid="conversation" data-conversation-id={c.id}>
        <input
          aria-label="Conversation name"
          data-testid="conversation-title-input"
          value={title}
          maxLength={CONVERSATION_TITLE_MAX}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void save();
            if (e.key === 'Escape') setEditing(false);
          }}
        />
        <button className="small" data-testid="conversation-title-save" onClick={() => void save()}>
          Save
        </button>
      </li>
    );
  }
  return (
    <li className={`conv-item ${active ? 'active' : ''}`} data-testid="conversation" data-conversation-id={c.id}>
      <button className="conv-open" aria-current={active ? 'true' : undefined} data-testid="conversation-open" dir="auto" onClick={() => void useChat.getState().select(c.id)}>
        {c.incognito && (
          <span className="incognito-badge" data-testid="conversation-incognito">
            Incognito
          </span>
        )}
        {conversationLabel(c)}
      </button>
      {c.incognito ? (
        <span className="conv-actions">
          <button className="ghost small" data-testid="conversation-close" disabled={busy} aria-label={`Close the incognito chat “${conversationLabel(c)}” (deletes it)`} onClick={() => void useChat.getState().closeIncognito(c.id)}>
            Close
          </button>
        </span>
      ) : (
      <span className="conv-actions">
        <button
          className="ghost small"
          data-testid="conversation-rename"
          aria-label={`Rename “${conversationLabel(c)}”`}
          onClick={() => {
            setTitle(c.title || conversationLabel(c));
            setEditing(true);
          }}
        >
          Rename
        </button>
        <button className="ghost small danger" data-testid="conversation-delete" disabled={busy} aria-label={`Delete “${conversationLabel(c)}”`} onClick={() => useChat.getState().remove(c.id)}>
          Delete
        </button>
      </span>
      )}
    </li>
  );
}

/** The persona's conversations, most recently used first. */
export function ConversationList() {
  const conversations = useChat((s) => s.conversations);
  const current = useChat((s) => s.conversation);
  const busy = useChat((s) => s.busy);
  const persona = useChat((s) => s.persona);
  const [searching, setSearching] = useState(false);
  return (
    <nav className="conv-list" aria-label="Conversations" data-testid="conversation-list">
      {persona && <ConversationSearch key={persona} persona={persona} onActive={setSearching} />}
      <button className="ghost small" data-testid="new-chat" disabled={busy} onClick={() => void useChat.getState().newChat()}>
        + New chat
      </button>
      <button
        className="ghost small"
        data-testid="new-incognito-chat"
        disabled={busy}
        title="Reads this persona’s memory, saves nothing, and is deleted when you close it"
        onClick={() => void useChat.getState().newChat(true)}
      >
        + Incognito chat
      </button>
      <ul className={searching ? 'conv-hidden' : undefined}>
        {conversations.map((c) => (
          <Item key={c.id} c={c} active={c.id === current} />
        ))}
      </ul>
    </nav>
  );
}
