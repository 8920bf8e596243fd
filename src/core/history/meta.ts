import type { Actor, MemoryOrigin } from '../../shared/api';

/** Who made a change, from where, and why: stored with every version (docs/history.md). */
export interface ChangeMeta {
  actor: Actor;
  conversationId?: string | null;
  reason?: string | null;
}

/** A memory's origin says who wrote it: the actor of its first version when none is given. */
export function actorOfOrigin(origin: MemoryOrigin): Actor {
  if (origin === 'manual') return 'user';
  if (origin === 'explicit') return 'tool';
  return origin;
}

/** Reasons come from people and models: one line, bounded, so a version row stays small. */
export function cleanReason(reason: string | null | undefined): string | null {
  if (!reason) return null;
  const one = reason.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 500);
  return one || null;
}
