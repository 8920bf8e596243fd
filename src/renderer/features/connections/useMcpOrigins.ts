import { useState } from 'react';
import type { MemoryOrigin } from '../../../shared/api';
import { getApi } from '../../api';
import { useEvents } from '../../api/events';

/** `mcp:<client>` for every AI tool that has connected, for the memory browser's origin filter. */
export function useMcpOrigins(): MemoryOrigin[] {
  const [origins, setOrigins] = useState<MemoryOrigin[]>([]);
  useEvents((onCleanup) => {
    let live = true;
    onCleanup(() => (live = false));
    const load = () =>
      getApi()
        .invoke('mcp.clients', {})
        .then((clients) => live && setOrigins(clients.map((c) => `mcp:${c.name}` as const)))
        .catch((e: unknown) => console.warn('could not list MCP clients for the origin filter:', e));
    void load();
    return { 'mcp.changed': () => void load() };
  });
  return origins;
}
