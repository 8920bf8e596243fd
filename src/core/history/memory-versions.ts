// Versions of memories (docs/history.md): each change inserts the state after
// it and closes the previous state's validity, inside the caller's transaction.
import type { Actor, MemoryChange, MemoryVersion } from '../../shared/api';
import type { Queryable } from '../db/client';
import { toIso } from '../time';
import { type ChangeMeta, cleanReason } from './meta';

export interface MemoryState {
  id: string;
  persona: string;
  content: string;
  category: string | null;
  importance: number;
  day: string;
  supersededBy?: string | null;
}

/**
 * Records `state` as the memory's newest version. A deletion's version is
 * closed at once (valid_to = valid_from): the memory has no current state.
 */
export async function recordMemoryVersion(
  q: Queryable,
  state: MemoryState,
  change: MemoryChange,
  meta: ChangeMeta,
  at: Date,
): Promise<void> {
  await q.query('UPDATE memory_versions SET valid_to = $2 WHERE memory_id = $1 AND valid_to IS NULL', [state.id, at]);
  await q.query(
    `INSERT INTO memory_versions
       (memory_id, persona, version, change, content, category, importance, day, superseded_by,
        actor, conversation_id, reason, valid_from, valid_to)
     VALUES ($1, $2, coalesce((SELECT max(version) FROM memory_versions WHERE memory_id = $1), 0) + 1,
             $3, $4, $5, $6, $7::date, $8, $9,
             (SELECT id FROM conversations WHERE id = $10::uuid AND persona = $2), $11, $12,
             CASE WHEN $3 = 'delete' THEN $12::timestamptz END)`,
    [
      state.id,
      state.persona,
      change,
      state.content,
      state.category,
      state.importance,
      state.day,
      state.supersededBy ?? null,
      meta.actor,
      meta.conversationId ?? null,
      cleanReason(meta.reason),
      at,
    ],
  );
}

/** The first version of many rows written in one statement (imports). */
export async function recordImportedVersions(q: Queryable, ids: string[], actor: Actor, at: Date): Promise<void> {
  if (!ids.length) return;
  await q.query(
    `INSERT INTO memory_versions (memory_id, persona, version, change, content, category, importance, day, actor, valid_from)
     SELECT m.id, m.persona, 1, 'create', m.content, m.category, m.importance, m.day, $2, $3
     FROM memories m WHERE m.id = ANY($1::uuid[])`,
    [ids, actor, at],
  );
}

interface VersionRow {
  memory_id: string;
  persona: string;
  version: number;
  change: MemoryChange;
  content: string;
  category: string | null;
  importance: number;
  day: string;
  superseded_by: string | null;
  actor: Actor | null;
  conversation_id: string | null;
  reason: string | null;
  valid_from: Date;
  valid_to: Date | null;
}

export const MEMORY_VERSION_COLUMNS = `v.memory_id, v.persona, v.version, v.change, v.content, v.category, v.importance,
  v.day, v.superseded_by, v.actor, v.conversation_id, v.reason, v.valid_from, v.valid_to`;

export function toMemoryVersion(r: VersionRow): MemoryVersion {
  return {
    memoryId: r.memory_id,
    persona: r.persona,
    version: r.version,
    change: r.change,
    content: r.content,
    category: r.category,
    importance: r.importance,
    day: r.day,
    supersededBy: r.superseded_by,
    actor: r.actor,
    conversationId: r.conversation_id,
    reason: r.reason,
    validFrom: toIso(r.valid_from),
    validTo: r.valid_to ? toIso(r.valid_to) : null,
  };
}

/** Every version of one memory, oldest first (empty when it never existed). */
export async function memoryHistory(q: Queryable, id: string): Promise<MemoryVersion[]> {
  const { rows } = await q.query<VersionRow>(
    `SELECT ${MEMORY_VERSION_COLUMNS} FROM memory_versions v WHERE v.memory_id = $1 ORDER BY v.version`,
    [id],
  );
  return rows.map(toMemoryVersion);
}

export async function memoryVersion(q: Queryable, id: string, version: number): Promise<MemoryVersion | null> {
  const { rows } = await q.query<VersionRow>(
    `SELECT ${MEMORY_VERSION_COLUMNS} FROM memory_versions v WHERE v.memory_id = $1 AND v.version = $2`,
    [id, version],
  );
  return rows[0] ? toMemoryVersion(rows[0]) : null;
}
