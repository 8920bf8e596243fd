// Words in past conversations: every user or assistant message of the persona's
// conversations, matched by Postgres full-text search (English stemming, so "plans" finds
// "planning"; the words as typed, whatever their punctuation: websearch_to_tsquery). The
// messages table has no text index: a persona's chats are small enough to scan, and a
// match is read in place (docs/conversations.md).
import type { ConversationHit } from '../../shared/api';
import type { Queryable } from '../db/client';
import { toIso } from '../time';

interface Row {
  conversation_id: string;
  title: string;
  first_message: string | null;
  message_id: string | number;
  role: 'user' | 'assistant';
  snippet: string;
  created_at: Date;
}

export async function searchConversations(db: Queryable, persona: string, query: string, limit: number): Promise<ConversationHit[]> {
  const { rows } = await db.query<Row>(
    `WITH q AS (SELECT websearch_to_tsquery('english', $2) AS q)
     SELECT c.id AS conversation_id, c.title,
       (SELECT left(f.content, 200) FROM messages f WHERE f.conversation_id = c.id AND f.role = 'user' ORDER BY f.id LIMIT 1) AS first_message,
       m.id AS message_id, m.role, m.created_at,
       -- A short message is its own snippet; a long one is cut around the words found.
       CASE WHEN length(m.content) <= 240 THEN m.content
         ELSE ts_headline('english', m.content, q.q, 'StartSel="", StopSel="", MaxWords=35, MinWords=15, MaxFragments=1') END AS snippet
     FROM q, messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE c.persona = $1 AND m.role IN ('user', 'assistant') AND numnode(q.q) > 0
       AND to_tsvector('english', m.content) @@ q.q
     ORDER BY ts_rank(to_tsvector('english', m.content), q.q) DESC, m.id DESC
     LIMIT $3`,
    [persona, query, limit],
  );
  return rows.map((r) => ({
    conversation: r.conversation_id,
    title: r.title || r.first_message?.replace(/\s+/g, ' ').slice(0, 60) || 'New chat',
    message: String(r.message_id),
    role: r.role,
    // Read as text: Markdown's emphasis and heading marks are left out.
    snippet: r.snippet.replace(/[*_`#>~]+/g, '').replace(/\s+/g, ' ').trim(),
    createdAt: toIso(r.created_at),
  }));
}
