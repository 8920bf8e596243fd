import type { ChatMessage, ChatToolCall } from '../../../shared/api';
import { revealMemory } from './reveal';

function prettyArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw; // shown as the model sent it: malformed arguments are part of the story
  }
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
    <details className={`chat-tool ${failed ? 'failed' : ''}`} data-testid="tool-call" data-tool={call.name}>
      <summary>
        <span className="chat-tool-name">{call.name}</span>
        {!result && <span className="muted"> running…</span>}
        {failed && <span className="chat-tool-error"> error</span>}
        {result?.memoryIds && <MemoryChips persona={persona} ids={result.memoryIds} />}
      </summary>
      <pre className="chat-tool-args">{prettyArgs(call.arguments)}</pre>
      {result && <pre className="chat-tool-result" data-testid="tool-result">{result.content}</pre>}
    </details>
  );
}

export function MessageItem({ persona, message, results }: { persona: string; message: ChatMessage; results: Map<string, ChatMessage> }) {
  const calls = message.toolCalls ?? [];
  if (message.role === 'tool') {
    // A result whose call is not shown (folded away): still visible, on its own.
    return <div className="chat-msg tool" data-testid="chat-message" data-role="tool"><pre className="chat-tool-result">{message.content}</pre></div>;
  }
  return (
    <div className={`chat-msg ${message.role} ${message.folded ? 'folded' : ''}`} data-testid="chat-message" data-role={message.role} data-message-id={message.id}>
      {message.content && <div className="chat-text">{message.content}</div>}
      {calls.map((c) => (
        <ToolCall key={c.id} persona={persona} call={c} result={results.get(c.id)} />
      ))}
    </div>
  );
}
