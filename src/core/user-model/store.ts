import type { UserModelEntry } from '../../shared/api';
import type { Queryable } from '../db/client';
import { toIso } from '../time';

/** The suggested dimensions (docs/memory-model.md), in the order the prompt block lists them. */
export const RECOMMENDED_DIMENSIONS = ['baseline', 'preferences', 'working_patterns', 'feedback', 'goals'] as const;

interface Row {
  id: string;
  persona: string;
  dimension: string;
  content: string;
  confidence: number;
  inserted_at: Date;
  updated_at: Date;
}

function toEntry(r: Row): UserModelEntry {
  return {
    id: r.id,
    persona: r.persona,
    dimension: r.dimension,
    content: r.content,
    confidence: r.confidence,
    insertedAt: toIso(r.inserted_at),
    updatedAt: toIso(r.updated_at),
  };
}

const COLUMNS = 'id, persona, dimension, content, confidence, inserted_at, updated_at';

/**
 * Stable order: the recommended dimensions in their documented order, then
 * any other dimension alphabetically (byte order, so it never depends on the
 * database's collation). The prompt block keeps this order, so it only moves
 * when the user model itself changes.
 */
export async function listUserModel(db: Queryable, persona: string): Promise<UserModelEntry[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM user_models WHERE persona = $1
     ORDER BY coalesce(array_position($2::text[], dimension), 2147483647), dimension COLLATE "C"`,
    [persona, RECOMMENDED_DIMENSIONS],
  );
  return rows.map(toEntry);
}

/** One row per (persona, dimension): writing again replaces content, confidence and updated_at. */
export async function upsertUserModel(
  db: Queryable,
  e: { persona: string; dimension: string; content: string; confidence: number },
  now: Date,
): Promise<UserModelEntry> {
  const { rows } = await db.query<Row>(
    `INSERT INTO user_models (persona, dimension, content, confidence, inserted_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (persona, dimension)
     DO UPDATE SET content = EXCLUDED.content, confidence = EXCLUDED.confidence, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [e.persona, e.dimension, e.content, e.confidence, now],
  );
  return toEntry(rows[0]!);
}

export async function deleteUserModel(db: Queryable, persona: string, dimension: string): Promise<boolean> {
  const { affectedRows } = await db.query('DELETE FROM user_models WHERE persona = $1 AND dimension = $2', [persona, dimension]);
  return affectedRows > 0;
}
