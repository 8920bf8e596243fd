import type { Memory, RecallHit, UserModelEntry } from '../../../shared/api';
import { oneLine } from '../../memories/top';

/** The same tag recall uses, so a model can pass the id on to get/update/delete. */
export function memoryLine(m: Memory): string {
  return `[memory ${m.id} · ${m.category ?? 'general'} · imp=${m.importance} · ${m.day}] ${oneLine(m.content)}`;
}

/**
 * How well a hit matches, in a word: from the better of its text relevance and
 * its meaning similarity (both 0–1), not from the final score, which also
 * weighs importance and recency and so says little about the match itself.
 */
export function hitStrength(h: RecallHit): 'strong' | 'fair' | 'weak' {
  const match = Math.max(h.score.text, h.score.cosine ?? 0);
  return match >= 0.6 ? 'strong' : match >= 0.35 ? 'fair' : 'weak';
}

export function hitLine(h: RecallHit): string {
  return `${h.tag} (${hitStrength(h)} match, score ${h.score.final.toFixed(3)}) ${oneLine(h.content)}`;
}

export function userModelLine(e: UserModelEntry): string {
  return `- [${e.dimension}, conf=${e.confidence}] ${oneLine(e.content)}`;
}

/** What programs get in structuredContent: the fields a client can act on, nothing internal. */
export function memoryData(m: Memory): { id: string; category: string | null; content: string; importance: number; day: string; origin: string; updatedAt: string } {
  return { id: m.id, category: m.category, content: m.content, importance: m.importance, day: m.day, origin: m.origin, updatedAt: m.updatedAt };
}
