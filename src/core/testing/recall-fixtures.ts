// Test fixtures: rows written straight into the tables, so no embedding job
// changes a vector while a test ranks them.
import type { Queryable } from '../db/client';
import { encodeVector } from '../db/vector';
import type { MemoryOrigin } from '../../shared/api';

export const DAY_MS = 86_400_000;

export interface FixtureMemory {
  persona: string;
  content: string;
  category?: string | null;
  importance: number;
  /** How long before `now` it was inserted, in (fractional) days. */
  daysAgo: number;
  day?: string;
  vector?: number[] | Float32Array | null;
  /** Defaults to the current model. */
  model?: string;
  /** Defaults to 'manual'. */
  origin?: MemoryOrigin;
}

export async function insertFixtureMemory(q: Queryable, now: Date, model: string, m: FixtureMemory): Promise<string> {
  const at = new Date(now.getTime() - m.daysAgo * DAY_MS);
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO memories (persona, content, category, importance, day, inserted_at, embedding, embedding_model, origin)
     VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9) RETURNING id`,
    [
      m.persona,
      m.content,
      m.category ?? null,
      m.importance,
      m.day ?? at.toISOString().slice(0, 10),
      at,
      m.vector ? encodeVector(m.vector) : null,
      m.vector ? (m.model ?? model) : null,
      m.origin ?? 'manual',
    ],
  );
  return rows[0]!.id;
}

export async function insertFixtureChunk(
  q: Queryable,
  model: string,
  c: { persona: string; source: string; index: number; content: string; vector?: number[] | null },
): Promise<string> {
  await q.query(`INSERT INTO knowledge_sources (persona, source) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [c.persona, c.source]);
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO knowledge_chunks (persona, source, chunk_index, content, embedding, embedding_model)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [c.persona, c.source, c.index, c.content, c.vector ? encodeVector(c.vector) : null, c.vector ? model : null],
  );
  return rows[0]!.id;
}

export async function addPersona(q: Queryable, id: string): Promise<void> {
  await q.query('INSERT INTO personas (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING', [id]);
}
