import type { McpClient } from '../../../shared/api';
import { shortTime } from '../../lib/format';

/** Each AI tool seen so far, its last call, and its on/off switch. */
export function ClientList({ clients, onToggle }: { clients: McpClient[]; onToggle: (name: string, enabled: boolean) => void }) {
  if (!clients.length) return <p className="muted">No AI tool has connected yet.</p>;
  return (
    <table className="mcp-table" data-testid="mcp-clients">
      <thead>
        <tr>
          <th>AI tool</th>
          <th>Last call</th>
          <th>Calls</th>
          <th>Allowed</th>
        </tr>
      </thead>
      <tbody>
        {clients.map((c) => (
          <tr key={c.name} data-testid="mcp-client" data-client={c.name}>
            <td>
              {c.name}
              {c.version && <span className="muted"> {c.version}</span>}
            </td>
            <td>
              {c.lastCall ? (
                <>
                  {c.lastCall.tool} · {c.lastCall.persona} · {shortTime(c.lastCall.at)} · {c.lastCall.ok ? 'ok' : 'error'}
                </>
              ) : (
                '—'
              )}
            </td>
            <td>{c.calls.toLocaleString()}</td>
            <td>
              <label className="switch">
                <input type="checkbox" data-testid="mcp-client-enabled" checked={c.enabled} onChange={(e) => onToggle(c.name, e.target.checked)} />
                {c.enabled ? 'On' : 'Off'}
              </label>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
