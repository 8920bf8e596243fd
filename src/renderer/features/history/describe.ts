import type { MemoryVersion } from '../../../shared/api';

const CHANGE_LABELS: Record<string, string> = {
  create: 'created',
  update: 'edited',
  restore: 'restored',
  supersede: 'superseded',
  unsupersede: 'supersession undone',
  delete: 'deleted',
  undelete: 'deletion undone',
  upsert: 'set',
};

/** "edited by the chat", "created by Claude Desktop": who did what, in words. */
export function describeChange(v: { change: string; actor: string | null }): string {
  return `${CHANGE_LABELS[v.change] ?? v.change} by ${actorLabel(v.actor)}`;
}

export function actorLabel(actor: string | null): string {
  if (actor === null) return 'someone (before history was kept)';
  if (actor === 'user') return 'you';
  if (actor === 'tool') return 'the chat';
  if (actor === 'review') return 'the periodic review';
  if (actor === 'flush') return 'the pre-compaction flush';
  if (actor === 'import') return 'an import';
  return actor.startsWith('mcp:') ? actor.slice(4) : actor;
}

/** A memory version's fields other than its text, for the diff line. */
export function memoryFields(v: MemoryVersion): string {
  return `${v.category ?? 'uncategorised'} · imp ${v.importance} · ${v.day}`;
}
