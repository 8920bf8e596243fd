// Who made a call or a change. The door decides it (never the page): the app's
// own UI is 'user', an MCP connection 'mcp:<client name>'; inside the core, the
// chat's tool calls are 'tool', the periodic review 'review', the
// pre-compaction flush 'flush', imports 'import'.

export type Actor = 'user' | 'tool' | 'review' | 'flush' | 'import' | `mcp:${string}`;

/** What a door adds to a call besides the method and its arguments. */
export interface CallMeta {
  actor?: Actor;
}

export const ACTOR_KINDS = ['user', 'tool', 'review', 'flush', 'import', 'mcp'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** 'mcp:Claude Desktop' → 'mcp'; the others are their own kind. */
export function actorKind(a: Actor): ActorKind {
  return a.startsWith('mcp:') ? 'mcp' : (a as Exclude<Actor, `mcp:${string}`>);
}

/** An MCP client's actor: its self-declared name, one line, at most 64 characters. */
export function mcpActor(clientName: string): Actor {
  // A client name is shown in the activity log: no control characters, bounded.
  const clean = clientName.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 64);
  return `mcp:${clean || 'unknown client'}`;
}

export function isActor(s: unknown): s is Actor {
  if (typeof s !== 'string') return false;
  return (ACTOR_KINDS as readonly string[]).includes(s) ? s !== 'mcp' : /^mcp:[^\u0000-\u001f\u007f]{1,64}$/.test(s);
}
