// Placeholder until the chat engineer's view lands (this file is theirs to overwrite).
export function ChatView() {
  return (
    <section className="view" data-testid="chat-view">
      <header className="view-header">
        <h1>Chat</h1>
      </header>
      <div className="empty">
        <h2>Chat is coming</h2>
        <p>The conversation view is not in this build yet.</p>
      </div>
    </section>
  );
}
