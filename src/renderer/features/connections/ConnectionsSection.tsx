import { useEffect } from 'react';
import { usePersonas } from '../../stores/personas';
import { CallLog } from './CallLog';
import { ClientList } from './ClientList';
import { Snippet } from './Snippet';
import { useConnections } from './store';
import './connections.css';

/** Settings → Connections: other AI tools using this Hearth's memory over MCP. */
export function ConnectionsSection() {
  const persona = usePersonas((s) => s.activeId);
  const { info, clients, calls, logClient, open, setEnabled, setListener, setLogClient, rotateToken } = useConnections();

  useEffect(() => open(persona), [open, persona]);

  return (
    <div className="connections" data-testid="connections-view">
      <p className="hint">
        Other AI tools (Claude Desktop, editors, any MCP host) can search and add to the memory of persona <strong>{persona}</strong> over the
        Model Context Protocol. Paste one of these into the tool’s MCP configuration; it starts Hearth’s MCP server, which uses this Hearth
        while it runs and opens the data folder itself otherwise. Add <code>--read-only</code> to the arguments for a tool that may only read.
      </p>
      {info && (
        <>
          <Snippet title="Claude Desktop (claude_desktop_config.json)" text={info.claudeDesktop} testId="mcp-snippet-claude" />
          <Snippet title="Cursor (.cursor/mcp.json or ~/.cursor/mcp.json)" text={info.cursor} testId="mcp-snippet-cursor" />
          <Snippet title="VS Code (.vscode/mcp.json)" text={info.vscode} testId="mcp-snippet-vscode" />
          <Snippet title="Any MCP host (stdio)" text={info.generic} testId="mcp-snippet-generic" />
          {info.http && (
            <div className="mcp-http" data-testid="mcp-http">
              {info.http.switchable && (
                <label className="switch">
                  <input type="checkbox" data-testid="mcp-listener" checked={info.http.enabled} onChange={(e) => void setListener(e.target.checked)} />
                  Let AI tools connect while the app runs
                </label>
              )}
              {info.http.listening ? (
                <>
                  <p className="hint">
                    Streamable HTTP: <code>{info.http.url}</code> with this Hearth’s token as <code>Authorization: Bearer …</code>
                    {info.http.token ? '' : ' (the one Hearth was started with, in place of <token>)'}; add <code>&amp;readOnly=1</code> (exactly
                    that) for a read-only connection.
                  </p>
                  {info.httpSnippet && <Snippet title="A host that speaks Streamable HTTP" text={info.httpSnippet} testId="mcp-snippet-http" />}
                  {info.http.switchable && (
                    <p className="hint">
                      The token and port stay the same across launches.{' '}
                      <button type="button" data-testid="mcp-rotate-token" onClick={() => void rotateToken()}>
                        New token
                      </button>{' '}
                      (the old one stops working at once).
                    </p>
                  )}
                </>
              ) : (
                <p className="hint">Switched off: MCP servers of other AI tools cannot reach this app (they wait, then report why).</p>
              )}
            </div>
          )}
        </>
      )}
      <h3>AI tools seen</h3>
      <ClientList clients={clients} onToggle={(name, enabled) => void setEnabled(name, enabled)} />
      <h3>Call log</h3>
      <CallLog calls={calls} clients={clients} client={logClient} onClient={setLogClient} />
    </div>
  );
}
