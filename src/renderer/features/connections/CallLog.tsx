import type { McpCall, McpClient } from '../../../shared/api';
import { shortTime } from '../../lib/format';

interface Props {
  calls: McpCall[];
  clients: McpClient[];
  client: string | null;
  onClient: (client: string | null) => void;
}

/** The newest calls first: client, tool, persona, time, ok or the error. */
export function CallLog({ calls, clients, client, onClient }: Props) {
  return (
    <div className="mcp-log">
      <label>
        Show
        <select value={client ?? ''} onChange={(e) => onClient(e.target.value || null)} data-testid="mcp-log-client">
          <option value="">every AI tool</option>
          {clients.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      {calls.length === 0 ? (
        <p className="muted">No calls yet.</p>
      ) : (
        <table className="mcp-table" data-testid="mcp-calls">
          <thead>
            <tr>
              <th>Time</th>
              <th>AI tool</th>
              <th>Tool</th>
              <th>Persona</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((c) => (
              <tr key={c.id} data-testid="mcp-call" data-ok={c.ok ? 'ok' : 'error'}>
                <td>{shortTime(c.at)}</td>
                <td>{c.client}</td>
                <td>{c.tool}</td>
                <td>{c.persona}</td>
                <td className={c.ok ? '' : 'error-text'} title={c.error ?? undefined}>
                  {c.ok ? 'ok' : `error: ${c.error ?? ''}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
