// Contextual keys for memories: what a memory's vector is made from. A memory
// captured from a chat or an import leans on the one written just before it
// in the same stream ("she said yes" after "I asked Ana to marry me") and on
// when it was written, so its key is its day (in words a question would use),
// its category, that previous memory and then its own content. A memory
// written by hand stands alone: its key is its content. What is shown to the
// person and the model stays the content (docs/ranking.md, "Contextual keys").
import type { Queryable } from '../db/client';

export interface KeyedMemory {
  content: string;
  day: string;
  category: string | null;
  /** The memory written just before it on the same day in the same stream; null when it is the first. */
  previous: string | null;
  /** Written by hand: no stream, the key is the content alone. */
  standalone: boolean;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** Enough of the previous memory to say what it was about, without drowning the memory itself. */
const PREVIOUS_CHARS = 300;

/** "2023-05-08" → "8 May 2023": the words a question about a time uses. */
export function dayInWords(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? ''} ${m[1]}`.replace(/\s+/g, ' ');
}

export function memoryKey(m: KeyedMemory): string {
  if (m.standalone) return m.content;
  const head = [dayInWords(m.day), m.category].filter(Boolean).join(' · ');
  return [head, m.previous?.slice(0, PREVIOUS_CHARS), m.content].filter(Boolean).join('\n');
}

/**
 * The keys of these memories (missing ids are left out). The previous memory
 * is the one recall's neighbour context uses too (recall/memory-rows.ts): same
 * persona, day, origin and conversation, the nearest lower seq; hand-written
 * memories have none.
 */
export async function memoryKeys(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const { rows } = await q.query<KeyedMemory & { id: string }>(
    `SELECT m.id, m.content, to_char(m.day, 'YYYY-MM-DD') AS day, m.category, m.origin = 'manual' AS standalone,
       CASE WHEN m.origin <> 'manual' THEN (SELECT x.content FROM memories x
         WHERE x.persona = m.persona AND x.day = m.day AND x.origin = m.origin
           AND x.conversation_id IS NOT DISTINCT FROM m.conversation_id AND x.seq < m.seq
         ORDER BY x.seq DESC LIMIT 1) END AS previous
     FROM memories m WHERE m.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, memoryKey(r)]));
}
