import type { ChatMessage, ChatToolCall } from '../../../shared/api';
import { STOPPED_MARK } from '../../../shared/chat-marks';
import { Markdown } from '../../components/Markdown';
import { revealMemory } from './reveal';
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
}

export function MessageItem({ persona, message, results, }: ItemProps) {
  const calls = message.toolCalls ?? [];
  if (message.role === 'tool') {
    // A result whose call is not shown (folded away): still visible, on its own.
    return (
      <div className="chat-msg tool" data-testid="chat-message" data-role="tool">
        <pre className="chat-tool-result">{humanToolResult(message.content)}</pre>
      </div>
    );
  }
  return (
    <div className={`chat-msg ${message.role} ${message.folded ? 'folded' : ''}`} data-testid="chat-message" data-role={message.role} data-message-id={message.id}>
      {message.content && <MessageText role={message.role} content={message.content} />}
      {calls.map((c) => (
        <ToolCall key={c.id} persona={persona} call={c} result={results.get(c.id)} />
      ))}

    </div>
  );
}
