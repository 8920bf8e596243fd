import { useEffect, useState } from 'react';
import { getApi } from '../../api';
import { reportError } from '../../stores/toasts';
import { useNav } from '../../stores/nav';
import './welcome.css';

/**
 * The first-launch welcome: what Hearth is and the three things to do first, above the view until
 * dismissed. The dismissal is kept in the settings, with the data, so it shows once per data folder
 * whichever window opens it (the browser host picks a new port, and so a new local storage, at each
 * start); dismissed, it leaves nothing on screen (docs/ui.md).
 */
export function Welcome() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    let live = true;
    getApi()
      .invoke('settings.get', {})
      .then((s) => live && setShow(!s.welcomeDismissed))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!show) return null;

  const dismiss = () => {
    setShow(false);
    getApi()
      .invoke('settings.set', { welcomeDismissed: true })
      .catch((e: unknown) => {
        reportError(e, 'Could not remember that the welcome was read');
      });
  };
  const go = (view: 'settings' | 'knowledge') => () => useNav.getState().go(view);

  return (
    <section className="welcome" data-testid="welcome" aria-labelledby="welcome-title">
      <div className="welcome-text">
        <h2 id="welcome-title">Welcome to Hearth</h2>
        <p>
          An assistant that remembers: what you tell it, what it learns about you and the documents you give it, kept on this computer. It
          works offline; search by meaning uses a model built into the app.
        </p>
        <ul>
          <li>
            <strong>Chat:</strong> add a model in{' '}
            <button className="link" data-testid="welcome-settings" onClick={go('settings')}>
              Settings
            </button>{' '}
            — a local server (Ollama, llama.cpp, LM Studio) or an OpenAI key.
          </li>
          <li>
            <strong>Documents:</strong> drop a file anywhere in the window, or add it in{' '}
            <button className="link" data-testid="welcome-knowledge" onClick={go('knowledge')}>
              Knowledge
            </button>
            .
          </li>
          <li>
            <strong>Other AI tools:</strong> connect one to this memory over MCP, in Settings → Connections.
          </li>
        </ul>
      </div>
      <button className="primary" data-testid="welcome-dismiss" onClick={dismiss}>
        Got it
      </button>
    </section>
  );
}
