import { useState } from 'react';
import type { ChatMessage, ChatToolCall } from '../../../shared/api';
import { STOPPED_MARK } from '../../../shared/chat-marks';
import { Markdown } from '../../components/Markdown';
import { shortTime, timeOfDay } from '../../lib/format';
import { reportError } from '../../stores/toasts';
import { revealMemory } from './reveal';
import { useChat } from './store';
import { describeToolCall, humanToolResult } from './tool-words';


function splitStopped(content: string): { text: string; stopped: boolean } {
  return content.endsWith(STOPPED_MARK) ? { text: content.slice(0, -STOPPED_MARK.length), stopped: true } : { text: content, stopped: false };
}

function MemoryChips({ persona, ids }: { persona: string; ids: string[] }) {
  return (
    <span className="chat-chips">
      {ids.map((id) => (
        <button key={id} className="chip chat-memory-chip" data-testid="memory-chip" data-memory-id={id} title="Open this memory in the memory browser" onClick={() => revealMemory(persona, id)}>
          ◆ memory saved
        </button>
      ))}
    </span>
  );
}

function ToolCall({ persona, call, result }: { persona: string; call: ChatToolCall; result: ChatMessage | undefined }) {
  const failed = result?.content.startsWith('Error:') ?? false;
  return (
    <>
      <details className={`chat-tool ${failed ? 'failed' : ''}`} data-testid="tool-call" data-tool={call.name}>
        <summary>
          <span className="chat-tool-name" data-testid="tool-summary">{describeToolCall(call.name, call.arguments)}</span>
          {!result && <span className="muted"> running…</span>}
          {failed && <span className="chat-tool-error"> failed</span>}
        </summary>
        {result && (
          <pre className="chat-tool-result" data-testid="tool-result" dir="auto">
            {humanToolResult(result.content)}
          </pre>
        )}
      </details>
      {/* Outside the summary, so opening the details never lands on a chip by accident. */}
      {result?.memoryIds && <MemoryChips persona={persona} ids={result.memoryIds} />}
    </>
  );
}

function MessageText({ role, content }: { role: ChatMessage['role']; content: string }) {
  if (role !== 'assistant') {
    // What the person typed is shown as typed.
    return (
      <div className="chat-text plain" dir="auto">
        {content}
      </div>
    );
  }
  const { text, stopped } = splitStopped(content);
  return (
    <div className="chat-text">
      <Markdown text={text} />
      {stopped && (
        <span className="chat-stopped" data-testid="chat-stopped">
          Stopped
        </span>
      )}
    </div>
  );
}

interface ItemProps {
  persona: string;
  message: ChatMessage;
  results: Map<string, ChatMessage>;
  /** The message a conversation search opened. */
  found?: boolean;
  /** The newest question: it can be rewritten and sent again. */
  editable?: boolean;
}

/** Rewriting the newest question: Enter sends it again, Shift+Enter is a new line, Esc leaves it as it was. */
function EditMessage({ message, onDone }: { message: ChatMessage; onDone(): void }) {
  const [text, setText] = useState(message.content);
  const send = () => {
    const t = text.trim();
    if (!t) return;
    onDone();
    if (t !== message.content) void useChat.getState().edit(t);
  };
  return (
    <div className="chat-msg user editing" data-testid="chat-edit">
      <textarea
        aria-label="Edit your message"
        data-testid="chat-edit-input"
        value={text}
        autoFocus
        rows={Math.min(8, text.split('\n').length + 1)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            send();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      <div className="chat-edit-actions">
        <button className="ghost small" data-testid="chat-edit-cancel" onClick={onDone}>
          Cancel
        </button>
        <button className="primary small" data-testid="chat-edit-send" disabled={!text.trim()} onClick={send}>
          Send again
        </button>
      </div>
    </div>
  );
}

/** When it was written, and Copy: the message's text as written (Markdown for an answer). */
function MessageMeta({ message, onEdit }: { message: ChatMessage; onEdit?: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = splitStopped(message.content).text;
  return (
    <div className={`chat-msg-meta ${message.role}`} data-testid="chat-message-meta" data-message-id={message.id}>
      <time dateTime={message.createdAt} title={shortTime(message.createdAt)} data-testid="chat-message-time">
        {timeOfDay(message.createdAt)}
      </time>
      {text && (
        <button
          className="ghost small chat-copy"
          data-testid="chat-copy"
          aria-label={message.role === 'user' ? 'Copy your message' : 'Copy the answer'}
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => {
                setCopied(true);
                setTimeout(() => setCopied(false), 1500);
              },
              (e) => reportError(e, 'Could not copy'),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      )}
      {onEdit && (
        <button className="ghost small" data-testid="chat-edit-open" aria-label="Edit your message and send it again" onClick={onEdit}>
          Edit
        </button>
      )}
    </div>
  );
}

export function MessageItem({ persona, message, results, found = false, editable = false }: ItemProps) {
  const [editing, setEditing] = useState(false);
  const calls = message.toolCalls ?? [];
  if (editing && editable) return <EditMessage message={message} onDone={() => setEditing(false)} />;
  if (message.role === 'tool') {
    // A result whose call is not shown (folded away): still visible, on its own.
    return (
      <div className="chat-msg tool" data-testid="chat-message" data-role="tool">
        <pre className="chat-tool-result">{humanToolResult(message.content)}</pre>
      </div>
    );
  }
  return (
    <>
      <div
        className={`chat-msg ${message.role} ${message.folded ? 'folded' : ''} ${found ? 'found' : ''}`}
        data-testid="chat-message"
        data-role={message.role}
        data-message-id={message.id}
        data-found={found || undefined}
      >
        {message.content && <MessageText role={message.role} content={message.content} />}
        {calls.map((c) => (
          <ToolCall key={c.id} persona={persona} call={c} result={results.get(c.id)} />
        ))}
      </div>
      {/* Beside the message, not in it: the message holds its text alone. */}
      {message.content && <MessageMeta message={message} onEdit={editable ? () => setEditing(true) : undefined} />}
    </>
  );
}
