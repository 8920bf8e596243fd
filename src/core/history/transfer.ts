// The history tables' side of a persona file (docs/export.md): memory and
// user-model versions read as they were when an export started, and written
// by an import in the file's order (their ids are this database's sequence).
import type { PgliteDb, Queryable } from '../db/client';
import { type PageReader, type PreparedPage, ts } from '../db/bulk-rows';
import { copyBinary, type Field } from '../db/copy-binary';
import type { MemoryChange, UserModelChange } from '../../shared/api';

/** A memory version as a persona file holds it. */
export interface MemoryVersionRow {
  memoryId: string;
  version: number;
  change: MemoryChange;
  content: string;
  category: string | null;
  importance: number;
  day: string;
  supersededBy: string | null;
  actor: string | null;
  conversationId: string | null;
  reason: string | null;
  validFrom: string;
  validTo: string | null;
}

/** A user-model version as a persona file holds it. */
export interface UserModelVersionRow {
  dimension: string;
  version: number;
  change: UserModelChange;
  content: string | null;
  confidence: number | null;
  actor: string | null;
  conversationId: string | null;
  reason: string | null;
  validFrom: string;
  validTo: string | null;
}

/** The export's marks (selected in one statement with the other tables' marks): the last version of each kind written. */
export const MEMORY_VERSION_MARK_SQL = '(SELECT coalesce(max(id), 0) FROM memory_versions)::text';
export const USER_MODEL_VERSION_MARK_SQL = '(SELECT coalesce(max(id), 0) FROM user_model_versions)::text';

export async function countVersions(q: Queryable, persona: string): Promise<number> {
  let n = 0;
  for (const table of ['memory_versions', 'user_model_versions'] as const) {
    n += (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE persona = $1`, [persona])).rows[0]?.n ?? 0;
  }
  return n;
}

/**
 * Memory versions in the order they were written (their identity id), up to
 * the mark. A version closed by a change after the start is still the current one.
 */
export function memoryVersionPages(q: Queryable, persona: string, mark: string): PageReader<MemoryVersionRow & { id: string }> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{
      id: string; memory_id: string; version: number; change: MemoryChange; content: string; category: string | null;
      importance: number; day: string; superseded_by: string | null; actor: string | null; conversation_id: string | null; reason: string | null;
      valid_from: string; valid_to: string | null;
    }>(
      `SELECT v.id::text AS id, v.memory_id, v.version, v.change, v.content, v.category, v.importance, v.day::text AS day, v.superseded_by,
              v.actor, v.conversation_id, v.reason, ${ts('v.valid_from')} AS valid_from,
              ${ts(`CASE WHEN v.change <> 'delete' AND EXISTS (
                       SELECT 1 FROM memory_versions n WHERE n.memory_id = v.memory_id AND n.version = v.version + 1 AND n.id > $3::bigint)
                     THEN NULL ELSE v.valid_to END`)} AS valid_to
       FROM memory_versions v WHERE v.persona = $1 AND v.id > $2::bigint AND v.id <= $3::bigint ORDER BY v.id LIMIT ${limit}`,
      [persona, after ? after.id : '0', mark],
    );
    const page = rows.map((v) => ({
      id: v.id, memoryId: v.memory_id, version: v.version, change: v.change, content: v.content, category: v.category, importance: v.importance,
      day: v.day, supersededBy: v.superseded_by, actor: v.actor, conversationId: v.conversation_id, reason: v.reason,
      validFrom: v.valid_from, validTo: v.valid_to,
    }));
    return { rows: page, ms };
  };
}

/** User-model versions in the order they were written, up to the mark, as memoryVersionPages. */
export function userModelVersionPages(q: Queryable, persona: string, mark: string): PageReader<UserModelVersionRow & { id: string }> {
  return async (after, limit) => {
    const { rows, ms } = await q.query<{
      id: string; dimension: string; version: number; change: UserModelChange; content: string | null; confidence: number | null;
      actor: string | null; conversation_id: string | null; reason: string | null; valid_from: string; valid_to: string | null;
    }>(
      `SELECT v.id::text AS id, v.dimension, v.version, v.change, v.content, v.confidence, v.actor, v.conversation_id, v.reason,
              ${ts('v.valid_from')} AS valid_from,
              ${ts(`CASE WHEN v.change <> 'delete' AND EXISTS (
                       SELECT 1 FROM user_model_versions n WHERE n.persona = v.persona AND n.dimension = v.dimension
                         AND n.version = v.version + 1 AND n.id > $3::bigint)
                     THEN NULL ELSE v.valid_to END`)} AS valid_to
       FROM user_model_versions v WHERE v.persona = $1 AND v.id > $2::bigint AND v.id <= $3::bigint ORDER BY v.id LIMIT ${limit}`,
      [persona, after ? after.id : '0', mark],
    );
    const page = rows.map((v) => ({
      id: v.id, dimension: v.dimension, version: v.version, change: v.change, content: v.content, confidence: v.confidence, actor: v.actor,
      conversationId: v.conversation_id, reason: v.reason, validFrom: v.valid_from, validTo: v.valid_to,
    }));
    return { rows: page, ms };
  };
}

/** True when another persona holds a memory, or a memory's history, with this id. */
export async function memoryIdElsewhere(q: Queryable, id: string, persona: string): Promise<boolean> {
  const { rows } = await q.query(
    'SELECT 1 FROM memories WHERE id = $1 AND persona <> $2 UNION ALL SELECT 1 FROM memory_versions WHERE memory_id = $1 AND persona <> $2 LIMIT 1',
    [id, persona],
  );
  return rows.length > 0;
}

/** A page of memory versions (PreparedPage), ids already the ones they have here, written in page order. */
export function insertMemoryVersionPage(persona: string, page: MemoryVersionRow[]): PreparedPage<object> {
  const rows = page.map((v, n) => ({
    n, memory_id: v.memoryId, version: v.version, change: v.change, content: v.content, category: v.category, importance: v.importance, day: v.day,
    superseded_by: v.supersededBy, actor: v.actor, conversation_id: v.conversationId, reason: v.reason, valid_from: v.validFrom, valid_to: v.validTo,
  }));
  const json = JSON.stringify(rows);
  return (q) => q.query(
    `INSERT INTO memory_versions (memory_id, persona, version, change, content, category, importance, day, superseded_by, actor,
                                  conversation_id, reason, valid_from, valid_to)
     SELECT r.memory_id, $1, r.version, r.change, r.content, r.category, r.importance, r.day, r.superseded_by, r.actor, r.conversation_id,
            r.reason, r.valid_from, r.valid_to
     FROM json_to_recordset($2::json) AS r(n int, memory_id uuid, version int, change text, content text, category text, importance int, day date,
                                           superseded_by uuid, actor text, conversation_id uuid, reason text, valid_from timestamptz,
                                           valid_to timestamptz)
     ORDER BY r.n`,
    [persona, json],
  );
}

/** The embedded database's bulk path for insertMemoryVersionPage: one binary COPY, which numbers the rows in page order. */
export function copyMemoryVersionPage(persona: string, page: MemoryVersionRow[]): (bulk: PgliteDb) => Promise<{ ms?: number }> {
  const blob = copyBinary(page.map((v): Field[] => [
    { t: 'uuid', v: v.memoryId }, { t: 'text', v: persona }, { t: 'int4', v: v.version },
    { t: 'text', v: v.change }, { t: 'text', v: v.content }, { t: 'text', v: v.category },
    { t: 'int4', v: v.importance }, { t: 'date', v: v.day }, { t: 'uuid', v: v.supersededBy },
    { t: 'text', v: v.actor }, { t: 'uuid', v: v.conversationId }, { t: 'text', v: v.reason },
    { t: 'timestamptz', v: v.validFrom }, { t: 'timestamptz', v: v.validTo },
  ]));
  return (bulk) => bulk.copyFrom(
    `COPY memory_versions (memory_id, persona, version, change, content, category, importance, day, superseded_by, actor,
                           conversation_id, reason, valid_from, valid_to) FROM '/dev/blob' WITH (FORMAT binary)`,
    blob,
  );
}

/** A page of user-model versions (PreparedPage), written in page order. */
export function insertUserModelVersionPage(persona: string, page: UserModelVersionRow[]): PreparedPage<object> {
  const rows = page.map((v, n) => ({
    n, dimension: v.dimension, version: v.version, change: v.change, content: v.content, confidence: v.confidence, actor: v.actor,
    conversation_id: v.conversationId, reason: v.reason, valid_from: v.validFrom, valid_to: v.validTo,
  }));
  const json = JSON.stringify(rows);
  return (q) => q.query(
    `INSERT INTO user_model_versions (persona, dimension, version, change, content, confidence, actor, conversation_id, reason, valid_from, valid_to)
     SELECT $1, r.dimension, r.version, r.change, r.content, r.confidence, r.actor, r.conversation_id, r.reason, r.valid_from, r.valid_to
     FROM json_to_recordset($2::json) AS r(n int, dimension text, version int, change text, content text, confidence int, actor text,
                                           conversation_id uuid, reason text, valid_from timestamptz, valid_to timestamptz)
     ORDER BY r.n`,
    [persona, json],
  );
}
