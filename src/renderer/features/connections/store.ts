import { create } from 'zustand';
import type { McpCall, McpClient, McpConnectionInfo } from '../../../shared/api';
import { getApi } from '../../api';
import { notify, reportError } from '../../stores/toasts';

/** How many log lines the view shows (the core keeps the newest 1,000). */
export const LOG_SHOWN = 200;

interface ConnectionsState {
  persona: string | null;
  info: McpConnectionInfo | null;
  clients: McpClient[];
  calls: McpCall[];
  /** Only this client's calls in the log, or everyone's. */
  logClient: string | null;
  open(persona: string): void;
  reload(): Promise<void>;
  setLogClient(client: string | null): void;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  setListener(enabled: boolean): Promise<void>;
  rotateToken(): Promise<void>;
}

export const useConnections = create<ConnectionsState>((set, get) => ({
  persona: null,
  info: null,
  clients: [],
  calls: [],
  logClient: null,

  open(persona) {
    set({ persona });
    void get().reload();
  },

  async reload() {
    const { persona, logClient } = get();
    if (!persona) return;
    try {
      const api = getApi();
      const [info, clients, calls] = await Promise.all([
        api.invoke('mcp.connectionInfo', { persona }),
        api.invoke('mcp.clients', {}),
        api.invoke('mcp.calls', { limit: LOG_SHOWN, ...(logClient ? { client: logClient } : {}) }),
      ]);
      if (get().persona === persona) set({ info, clients, calls });
    } catch (e) {
      reportError(e, 'Could not load the connections');
    }
  },

  setLogClient(logClient) {
    set({ logClient });
    void get().reload();
  },

  async setEnabled(name, enabled) {
    // The switch moves at once; a refusal puts it back.
    const flip = (on: boolean) => set((s) => ({ clients: s.clients.map((c) => (c.name === name ? { ...c, enabled: on } : c)) }));
    flip(enabled);
    try {
      await getApi().invoke('mcp.setClientEnabled', { name, enabled });
      notify(enabled ? `${name} can use Hearth again.` : `${name} is switched off: its next calls are refused.`);
      await get().reload();
    } catch (e) {
      flip(!enabled);
      reportError(e, 'Could not switch the client');
    }
  },

  async setListener(enabled) {
    try {
      await getApi().invoke('mcp.setListener', { enabled });
      await get().reload();
    } catch (e) {
      reportError(e, 'Could not switch the MCP listener');
    }
  },

  async rotateToken() {
    try {
      await getApi().invoke('mcp.rotateToken', {});
      await get().reload();
      notify('New MCP token: AI tools configured with the old one must be given the new snippet.');
    } catch (e) {
      reportError(e, 'Could not replace the MCP token');
    }
  },
}));
