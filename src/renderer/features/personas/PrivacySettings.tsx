import { useState } from 'react';
import type { Persona } from '../../../shared/api';
import { getApi } from '../../api';
import { usePersonas } from '../../stores/personas';
import { reportError } from '../../stores/toasts';

/**
 * A persona's privacy in its edit dialog (docs/privacy.md): local only, and whether other AI tools
 * may use it. Each switch applies at once; turning Local only on says what the current providers stop.
 */
export function PrivacySettings({ persona }: { persona: Persona }) {
  const [current, setCurrent] = useState(persona);
  const [warnings, setWarnings] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  async function change(patch: { localOnly?: boolean; mcp?: boolean }) {
    const before = current;
    // The box shows the person's choice at once; a refusal puts it back.
    setCurrent({ ...current, ...patch });
    setBusy(true);
    try {
      const res = await getApi().invoke('personas.update', { id: persona.id, ...patch });
      setCurrent(res.persona);
      if (patch.localOnly !== undefined) setWarnings(patch.localOnly ? res.warnings : null);
      void usePersonas.getState().load();
    } catch (e) {
      setCurrent(before);
      reportError(e, `Could not change the privacy of “${persona.name}”`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="persona-privacy" data-testid="persona-privacy">
      <legend>Privacy (applies at once)</legend>
      <label className="check">
        <input type="checkbox" data-testid="persona-local-only" checked={current.localOnly} disabled={busy} onChange={(e) => void change({ localOnly: e.target.checked })} />
        <span>
          <strong>Local only 🔒</strong> — send this persona’s chats, memories and documents only to models on this computer (the built-in
          embedder, or a server at 127.0.0.1 or localhost). A model elsewhere is refused before anything is sent.
        </span>
      </label>
      {warnings && (
        <div className={`privacy-check ${warnings.length ? 'warn' : 'ok'}`} data-testid="persona-local-only-check" role="status">
          {warnings.length ? (
            <>
              <p>With the current settings, this stops working:</p>
              <ul>
                {warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>Nothing stops: the chat model and the embeddings already run on this computer.</p>
          )}
        </div>
      )}
      <label className="check">
        <input type="checkbox" data-testid="persona-mcp" checked={current.mcp} disabled={busy} onChange={(e) => void change({ mcp: e.target.checked })} />
        <span>
          <strong>Other AI tools may use it</strong> — over MCP (Claude Desktop, editors). Off: every MCP call to this persona is refused.
        </span>
      </label>
    </fieldset>
  );
}
