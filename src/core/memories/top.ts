import type { Queryable } from '../db/client';

export interface TopMemory {
  id: string;
  category: string | null;
  content: string;
  importance: number;
}

/** One prompt line per entry: a newline inside content must not forge further lines. */
export function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export const TOP_MEMORIES_HEADER = '## Top memories for this persona';

/**
 * The persona's top current memories by importance, then recency (the
 * (persona, importance, inserted_at) btree). Superseded ones stay out: the
 * model is told what is true now (docs/history.md).
 */
export async function topMemories(db: Queryable, persona: string, limit = 20): Promise<TopMemory[]> {
  const { rows } = await db.query<TopMemory>(
    `SELECT id, category, content, importance FROM memories
     WHERE persona = $1 AND superseded_by IS NULL
     ORDER BY importance DESC, inserted_at DESC, id DESC
     LIMIT $2`,
    [persona, limit],
  );
  return rows;
}

/** docs/memory-model.md: the header, then `- [category, imp=N] content` per memory (null category → general). */
export function renderTopMemoriesBlock(items: readonly Pick<TopMemory, 'category' | 'content' | 'importance'>[]): string {
  const lines = items.map((m) => `- [${m.category ?? 'general'}, imp=${m.importance}] ${oneLine(m.content)}`);
  return [TOP_MEMORIES_HEADER, ...lines].join('\n');
}

/** The same block with recall's `[memory <id> · category · imp=N]` tags, for readers that act on ids (the MCP resource). */
function renderTopMemoriesWithIds(items: readonly TopMemory[]): string {
  const lines = items.map((m) => `- [memory ${m.id} · ${m.category ?? 'general'} · imp=${m.importance}] ${oneLine(m.content)}`);
  return [TOP_MEMORIES_HEADER, ...lines].join('\n');
}

export async function topMemoriesBlock(db: Queryable, persona: string, limit = 20, withIds = false): Promise<string> {
  const items = await topMemories(db, persona, limit);
  return withIds ? renderTopMemoriesWithIds(items) : renderTopMemoriesBlock(items);
}

/** Distinct categories of a persona, for the browser's filter. */
export async function memoryCategories(db: Queryable, persona: string): Promise<string[]> {
  const { rows } = await db.query<{ category: string }>(
    `SELECT DISTINCT category FROM memories WHERE persona = $1 AND category IS NOT NULL ORDER BY category`,
    [persona],
  );
  return rows.map((r) => r.category);
}
