// Versions of user-model dimensions (docs/history.md): the prompt shows only
// user_models (the current values); these rows answer "what did I say before?".
import type { Actor, UserModelChange, UserModelVersion } from '../../shared/api';
import type { Queryable } from '../db/client';
import { toIso } from '../time';
import { type ChangeMeta, cleanReason } from './meta';

export interface UserModelState {
  persona: string;
  dimension: string;
  /** null for a deletion. */
  content: string | null;
  confidence: number | null;
}

export async function recordUserModelVersion(
  q: Queryable,
  state: UserModelState,
  change: UserModelChange,
  meta: ChangeMeta,
  at: Date,
): Promise<void> {
  await q.query(
    'UPDATE user_model_versions SET valid_to = $3 WHERE persona = $1 AND dimension = $2 AND valid_to IS NULL',
    [state.persona, state.dimension, at],
  );
  await q.query(
    `INSERT INTO user_model_versions
       (persona, dimension, version, change, content, confidence, actor, conversation_id, reason, valid_from, valid_to)
     VALUES ($1, $2, coalesce((SELECT max(version) FROM user_model_versions WHERE persona = $1 AND dimension = $2), 0) + 1,
             $3, $4, $5, $6, (SELECT id FROM conversations WHERE id = $7::uuid AND persona = $1), $8, $9,
             CASE WHEN $3 = 'delete' THEN $9::timestamptz END)`,
    [state.persona, state.dimension, change, state.content, state.confidence, meta.actor, meta.conversationId ?? null, cleanReason(meta.reason), at],
  );
}

interface VersionRow {
  persona: string;
  dimension: string;
  version: number;
  change: UserModelChange;
  content: string | null;
  confidence: number | null;
  actor: Actor | null;
  conversation_id: string | null;
  reason: string | null;
  valid_from: Date;
  valid_to: Date | null;
}

export const USER_MODEL_VERSION_COLUMNS = `v.persona, v.dimension, v.version, v.change, v.content, v.confidence,
  v.actor, v.conversation_id, v.reason, v.valid_from, v.valid_to`;

export function toUserModelVersion(r: VersionRow): UserModelVersion {
  return {
    persona: r.persona,
    dimension: r.dimension,
    version: r.version,
    change: r.change,
    content: r.content,
    confidence: r.confidence,
    actor: r.actor,
    conversationId: r.conversation_id,
    reason: r.reason,
    validFrom: toIso(r.valid_from),
    validTo: r.valid_to ? toIso(r.valid_to) : null,
  };
}

/** Every version of one dimension, oldest first, deletions included. */
export async function userModelHistory(q: Queryable, persona: string, dimension: string): Promise<UserModelVersion[]> {
  const { rows } = await q.query<VersionRow>(
    `SELECT ${USER_MODEL_VERSION_COLUMNS} FROM user_model_versions v
     WHERE v.persona = $1 AND v.dimension = $2 ORDER BY v.version`,
    [persona, dimension],
  );
  return rows.map(toUserModelVersion);
}
