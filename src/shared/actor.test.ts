import { describe, expect, it } from 'vitest';
import { actorKind, isActor, mcpActor } from './actor';

describe('actors', () => {
  it('an MCP client name becomes one bounded line under mcp:', () => {
    expect(mcpActor('Claude Desktop')).toBe('mcp:Claude Desktop');
    expect(mcpActor('  evil\r\nname\u0007 ')).toBe('mcp:evil name');
    expect(mcpActor('\n\n')).toBe('mcp:unknown client');
    expect(mcpActor('x'.repeat(200))).toHaveLength(4 + 64);
    expect(actorKind(mcpActor('Zed'))).toBe('mcp');
    expect(actorKind('review')).toBe('review');
  });

  it('recognises exactly the actor forms', () => {
    for (const a of ['user', 'tool', 'review', 'flush', 'import', 'mcp:Zed']) expect(isActor(a), a).toBe(true);
    for (const a of ['mcp', 'mcp:', 'admin', '', 'USER', 'mcp:a\nb', 5, null]) expect(isActor(a), String(a)).toBe(false);
  });
});
