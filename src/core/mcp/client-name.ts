import { MCP_CLIENT_NAME } from '../schemas';

/** The name a client gets when its handshake names nothing usable. */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * A client's initialize name as Hearth stores and shows it. It becomes part of
 * a memory's origin (`mcp:<name>`), a log line and a filter: letters, digits,
 * space, dot, dash and underscore only, at most 64 characters.
 */
export function sanitiseClientName(raw: unknown): string {
  if (typeof raw !== 'string') return UNKNOWN_CLIENT;
  const s = raw
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._ -]+/g, '-')
    .replace(/ {2,}/g, ' ')
    .replace(/-{2,}/g, '-')
    .trim()
    .slice(0, 64)
    .trim();
  return MCP_CLIENT_NAME.test(s) ? s : UNKNOWN_CLIENT;
}

export function originOf(client: string): `mcp:${string}` {
  return `mcp:${client}`;
}
