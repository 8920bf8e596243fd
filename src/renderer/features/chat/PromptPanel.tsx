import { useChat } from './store';

/** Exactly what the model is sent as its system prompt, block by block. */
export function PromptPanel() {
  const prompt = useChat((s) => s.prompt);
  if (!prompt) return null;
  const blocks: [string, string][] = [
    ['Base instructions', prompt.blocks.base],
    ['User model (read fresh every turn)', prompt.blocks.userModel],
    ['Top memories (snapshot, refreshed after compaction or /clear)', prompt.blocks.topMemories],
    ['Rolling summary', prompt.blocks.summary || '(none yet)'],
  ];
  return (
    <aside className="chat-prompt card" data-testid="prompt-panel">
      <header className="chat-prompt-header">
        <h2>System prompt</h2>
        <span className="muted">{prompt.system.length.toLocaleString()} characters</span>
        <button className="ghost small" onClick={() => useChat.getState().closePrompt()}>
          Close
        </button>
      </header>
      {blocks.map(([title, text]) => (
        <section key={title}>
          <h3>{title}</h3>
          <pre data-testid="prompt-block">{text}</pre>
        </section>
      ))}
    </aside>
  );
}
