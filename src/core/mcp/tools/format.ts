import type { Memory, RecallHit, UserModelEntry } from '../../../shared/api';
import { oneLine } from '../../memories/top';

/** The same tag recall uses, so a model can pass the id on to get/update/delete. */
export function memoryLine(m: Memory): string {
  return `[memory ${m.id} · ${m.category ?? 'general'} · imp=${m.importance} · ${m.day}] ${oneLine(m.content)}`;
}

export function hitLine(h: RecallHit): string {
  return `${h.tag} ${oneLine(h.content)}`;
}

export function userModelLine(e: UserModelEntry): string {
  return `- [${e.dimension}, conf=${e.confidence}] ${oneLine(e.content)}`;
}

/** What programs get in structuredContent: the fields a client can act on, nothing internal. */
export function memoryData(m: Memory): Record<string, unknown> {
  return { id: m.id, category: m.category, content: m.content, importance: m.importance, day: m.day, origin: m.origin, updatedAt: m.updatedAt };
}
