// The user_models table's side of a persona file (docs/export.md): entries
// read as they were when an export started, and written by an import.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/client';
import { type PageReader, ts } from '../db/bulk-rows';

/** A user-model entry as a persona file holds it. */
export interface UserModelRow {
  id: string;
  dimension: string;
  content: string;
  confidence: number;
  insertedAt: string;
  updatedAt: string;
}

export const countUserModel = async (q: Queryable, persona: string) =>
  (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM user_models WHERE persona = $1', [persona])).rows[0]?.n ?? 0;

/**
 * Entries by dimension. One changed after the start (a user-model version past
 * `versionMark`) is read as its last version before it; one added after is left out.
 */
export function userModelPages(q: Queryable, persona: string, versionMark: string): PageReader<UserModelRow & { gone: boolean }> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{ id: string; dimension: string; content: string; confidence: number; inserted_at: string; updated_at: string; gone: boolean }>(
      `SELECT u.id, u.dimension, CASE WHEN n.later THEN v.content ELSE u.content END AS content,
              CASE WHEN n.later THEN v.confidence ELSE u.confidence END AS confidence, ${ts('u.inserted_at')} AS inserted_at,
              ${ts('CASE WHEN n.later THEN v.valid_from ELSE u.updated_at END')} AS updated_at,
              (n.later AND (v.id IS NULL OR v.change = 'delete')) AS gone
       FROM user_models u
       CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM user_model_versions w WHERE w.persona = u.persona AND w.dimension = u.dimension
                                                                            AND w.id > $3::bigint) AS later) n
       LEFT JOIN LATERAL (SELECT p.* FROM user_model_versions p WHERE n.later AND p.persona = u.persona AND p.dimension = u.dimension
                            AND p.id <= $3::bigint ORDER BY p.version DESC LIMIT 1) v ON true
       WHERE u.persona = $1 AND u.dimension > $2 ORDER BY u.dimension LIMIT ${limit}`,
      [persona, after ? after.dimension : '', versionMark],
    );
    // `gone`: deleted since the start (left out of the file), still the key of the next page.
    const page = rows.map((u) => ({ id: u.id, dimension: u.dimension, content: u.content, confidence: u.confidence, insertedAt: u.inserted_at, updatedAt: u.updated_at, gone: u.gone }));
    return { rows: page, ms };
  };
}

/**
 * Writes one entry for the persona. Its id is kept unless this database
 * already uses it (importing a copy next to its original): then it gets a new
 * one, which is returned.
 */
export async function insertImportedUserModel(q: Queryable, persona: string, r: UserModelRow): Promise<string> {
  const { rows } = await q.query('SELECT 1 FROM user_models WHERE id = $1::uuid', [r.id]);
  const id = rows.length ? randomUUID() : r.id;
  await q.query(
    `INSERT INTO user_models (id, persona, dimension, content, confidence, inserted_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)`,
    [id, persona, r.dimension, r.content, r.confidence, r.insertedAt, r.updatedAt],
  );
  return id;
}
