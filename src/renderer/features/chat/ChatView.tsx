import { useEffect } from 'react';
import { useEvents } from '../../api/events';
import { useNav } from '../../stores/nav';
import { usePersonas } from '../../stores/personas';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { PromptPanel } from './PromptPanel';
import { useChat } from './store';
import { Transcript } from './Transcript';
import './chat.css';

function NotConfigured() {
  return (
    <div className="chat-banner warn" data-testid="chat-not-configured">
      <strong>No chat model is configured.</strong> Everything else works offline. To chat, enter a model name and either the base URL
      of a local OpenAI-compatible server (Ollama, llama.cpp, LM Studio) or an OpenAI API key in{' '}
      <button className="link" data-testid="chat-open-settings" onClick={() => useNav.getState().go('settings')}>
        Settings
      </button>
      .
    </div>
  );
}

export function ChatView() {
  const persona = usePersonas((s) => s.activeId);
  const personaName = usePersonas((s) => s.personas.find((p) => p.id === s.activeId)?.name ?? s.activeId);
  const configured = useChat((s) => s.configured);
  const error = useChat((s) => s.error);
  const prompt = useChat((s) => s.prompt);
  const busy = useChat((s) => s.busy);
  const incognito = useChat((s) => s.conversations.find((c) => c.id === s.conversation)?.incognito === true);

  useEffect(() => void useChat.getState().open(persona), [persona]);
  useEvents(() => {
    const chat = useChat.getState();
    return { 'chat.token': chat.onToken, 'chat.message': chat.onMessage, 'chat.state': chat.onState };
  });

  return (
    <section className="view chat-view" data-testid="chat-view">
      <header className="view-header">
        <div>
          <h1>Chat</h1>
          <p className="muted" data-testid="chat-persona">
            {personaName} remembers across conversations.
          </p>
        </div>
        <button className="ghost small" data-testid="prompt-toggle" onClick={() => (prompt ? useChat.getState().closePrompt() : void useChat.getState().loadPrompt())}>
          {prompt ? 'Hide prompt' : 'Prompt'}
        </button>
        <button className="ghost small" data-testid="chat-clear" onClick={() => useChat.getState().clear()}>
          Clear
        </button>
      </header>
      {configured === false && <NotConfigured />}
      {incognito && (
        <div className="chat-banner incognito" data-testid="incognito-banner" role="note" aria-label="Incognito chat">
          <span>
            <strong>Incognito — nothing from this chat is remembered.</strong> It reads {personaName}’s memory as usual but saves nothing,
            and it is deleted when you close it or open another chat.
          </span>
          <button className="small" data-testid="incognito-close" disabled={busy} onClick={() => void useChat.getState().closeIncognito()}>
            Close incognito chat
          </button>
        </div>
      )}
      {error && error.code !== 'not_configured' && (
        <div className="chat-banner error" data-testid="chat-error" role="alert">
          <span>{error.message}</span>
          {error.code !== 'busy' && (
            <button className="small" data-testid="chat-retry" disabled={busy} onClick={() => void useChat.getState().retry()}>
              Retry
            </button>
          )}
        </div>
      )}
      <div className="chat-body">
        <ConversationList />
        <Transcript persona={persona} />
        <PromptPanel />
      </div>
      <Composer disabled={configured === false} />
    </section>
  );
}
