import { Fragment, useEffect, useMemo, useRef } from 'react';
import type { ChatMessage } from '../../../shared/api';
import { MessageItem } from './MessageItem';
import { useChat } from './store';

/** Results are drawn under the call they answer, so they are indexed by call id. */
function resultsByCall(messages: ChatMessage[]): { results: Map<string, ChatMessage>; shown: Set<string> } {
  const results = new Map<string, ChatMessage>();
  const calls = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
    for (const c of m.toolCalls ?? []) calls.add(c.id);
  }
  return { results, shown: calls };
}

export function Transcript({ persona }: { persona: string }) {
  const messages = useChat((s) => s.messages);
  const summary = useChat((s) => s.summary);
  const busy = useChat((s) => s.busy);
  const found = useChat((s) => s.found);
  const end = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const { results, shown } = useMemo(() => resultsByCall(messages), [messages]);

  useEffect(() => {
    // Braces matter: newer Chromium returns a promise from scrollIntoView, and an effect may only return a cleanup.
    void end.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  useEffect(() => {
    // A search hit: after the scroll to the end above, bring the message found into view instead.
    if (found) void box.current?.querySelector(`[data-message-id="${CSS.escape(found)}"]`)?.scrollIntoView({ block: 'center' });
  }, [found, messages]);

  const visible = messages.filter((m) => m.role !== 'system' && !(m.role === 'tool' && m.toolCallId && shown.has(m.toolCallId)));
  const last = visible.at(-1);
  // "Thinking…" only until the answer starts to show.
  const thinking = busy && !(last?.role === 'assistant' && last.content);
  // Regenerate is offered on the newest answer, once no reply is running.
  const regenerateId = !busy && last?.role === 'assistant' && last.content ? last.id : null;
  // The newest question can be rewritten and sent again, once no reply is running.
  const editId = busy ? null : (visible.findLast((m) => m.role === 'user' && !m.folded)?.id ?? null);
  return (
    // aria-busy while a reply streams: screen readers read the answer once it is whole, not token by token.
    <div className="chat-transcript" ref={box} data-testid="chat-transcript" role="log" aria-live="polite" aria-busy={busy}>
      {summary && (
        <details className="chat-summary" data-testid="chat-summary">
          <summary>Earlier conversation (summarised)</summary>
          <p>{summary}</p>
        </details>
      )}
      {visible.length === 0 && !summary && <p className="muted chat-hint">Say hello. Tell the assistant something worth remembering and watch it save it.</p>}
      {visible.map((m) => (
        <Fragment key={m.id}>
          <MessageItem persona={persona} message={m} results={results} found={m.id === found} editable={m.id === editId} />
          {m.id === regenerateId && (
            <div className="chat-msg-actions">
              <button className="ghost small" data-testid="chat-regenerate" title="Answer the last message again" onClick={() => void useChat.getState().retry()}>
                Regenerate
              </button>
            </div>
          )}
        </Fragment>
      ))}
      {thinking && <div className="chat-typing muted" data-testid="chat-busy">Thinking…</div>}
      <div ref={end} />
    </div>
  );
}
