import { useEffect, useState } from 'react';
import type { ConversationHit } from '../../../shared/api';
import { getApi } from '../../api';
import { shortTime } from '../../lib/format';
import { reportError } from '../../stores/toasts';
import { useChat } from './store';

/**
 * "Search chats": words in any message of the persona's conversations. A hit opens its
 * conversation at that message. While a search is typed its hits replace the list below.
 */
export function ConversationSearch({ persona, onActive }: { persona: string; onActive(active: boolean): void }) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<ConversationHit[] | null>(null);
  const q = query.trim();

  useEffect(() => onActive(q.length > 0), [q, onActive]);
  useEffect(() => {
    if (!q) return setHits(null);
    let stale = false;
    // A short pause after each key: one search per word typed, not per letter.
    const t = setTimeout(() => {
      getApi()
        .invoke('conversations.search', { persona, query: q })
        .then(
          (found) => !stale && setHits(found),
          (e) => !stale && reportError(e, 'Could not search the chats'),
        );
    }, 200);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [q, persona]);

  return (
    <div className="conv-search">
      <input
        type="search"
        aria-label="Search chats"
        placeholder="Search chats"
        data-testid="conversation-search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setQuery('')}
      />
      {q && hits && (
        <ul className="conv-hits" aria-label="Messages found" data-testid="conversation-hits">
          {hits.length === 0 && (
            <li className="conv-hits-empty" data-testid="conversation-hits-empty">
              No message holds these words.
            </li>
          )}
          {hits.map((h) => (
            <li key={h.message}>
              <button className="conv-hit" data-testid="conversation-hit" data-message-id={h.message} onClick={() => void useChat.getState().reveal(h.conversation, h.message)}>
                <span className="conv-hit-title" dir="auto">
                  {h.title}
                </span>
                <span className="conv-hit-snippet" dir="auto">
                  {h.role === 'user' ? 'You: ' : ''}
                  {h.snippet}
                </span>
                <span className="conv-hit-when">{shortTime(h.createdAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
