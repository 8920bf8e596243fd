import { useLayoutEffect, useRef } from 'react';
import { useChat } from './store';

/** Enter sends, Shift+Enter is a new line; `/clear` starts the conversation over (with Undo). */
export function Composer({ disabled }: { disabled: boolean }) {
  // The draft lives in the store, per conversation, so it survives a visit to another view or chat.
  const keyOf = (s: { persona: string | null; conversation: string | null }) => `${s.persona}/${s.conversation ?? 'new'}`;
  const key = useChat(keyOf);
  const text = useChat((s) => s.drafts[key] ?? '');
  // The key as the store has it now, not as last drawn: the open conversation may have just loaded
  // while its new draw waits, and a key typed then belongs to it.
  const setText = (t: string) => useChat.getState().setDraft(keyOf(useChat.getState()), t);
  const busy = useChat((s) => s.busy);
  const input = useRef<HTMLTextAreaElement>(null);
  // Entering Chat (by `g c`, a click, a reload on #/chat or a persona switch) puts the cursor in the
  // message box, so what is typed next is a message, never a shortcut. A layout effect, so the focus
  // is there before the next key arrives.
  useLayoutEffect(() => input.current?.focus(), []);

  function submit() {
    const t = text.trim();
    if (!t || busy) return;
    setText('');
    if (t === '/clear') useChat.getState().clear();
    else void useChat.getState().send(t);
  }

  return (
    <div className="chat-composer">
      <textarea
        ref={input}
        data-testid="chat-input"
        aria-label="Message"
        placeholder={disabled ? 'Configure a chat model in Settings first' : 'Message (Enter to send, Shift+Enter for a new line, /clear to start over)'}
        rows={2}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      {busy ? (
        <button className="danger-solid" data-testid="chat-stop" onClick={() => void useChat.getState().cancel()}>
          Stop
        </button>
      ) : (
        <button className="primary" data-testid="chat-send" disabled={disabled || !text.trim()} onClick={submit}>
          Send
        </button>
      )}
    </div>
  );
}
