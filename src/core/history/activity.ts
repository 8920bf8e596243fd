// The activity log (docs/history.md): the latest versions across a persona's
// memories and user model, newest first, keyset-paged.
import type { ActorKind } from '../../shared/actor';
import type { ActivityItem } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { Queryable } from '../db/client';
import { MEMORY_VERSION_COLUMNS, toMemoryVersion } from './memory-versions';
import { toUserModelVersion, USER_MODEL_VERSION_COLUMNS } from './user-model-versions';

export interface ActivityQuery {
  persona: string;
  actorKind?: ActorKind;
  kind?: 'memory' | 'userModel';
  limit: number;
  before?: string | null;
}

interface Cursor {
  at: string;
  kind: 'memory' | 'userModel';
  id: string;
}

function decodeCursor(s: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.at === 'string' && (c.kind === 'memory' || c.kind === 'userModel') && /^\d+$/.test(c.id)) return c;
  } catch {
    // the clear error below
  }
  throw new AppError('invalid_args', 'The activity cursor is not valid; start from the newest changes.');
}

/** 'mcp' matches every `mcp:<client>`; the others match themselves. */
const ACTOR_CLAUSE = `($2::text IS NULL OR (CASE WHEN $2 = 'mcp' THEN v.actor LIKE 'mcp:%' ELSE v.actor = $2 END))`;

export async function listActivity(q: Queryable, a: ActivityQuery): Promise<{ items: ActivityItem[]; nextCursor: string | null }> {
  const c = a.before ? decodeCursor(a.before) : null;
  // Order key: (valid_from, kind, id) descending; 'userModel' > 'memory' as text.
  const params: unknown[] = [a.persona, a.actorKind ?? null, c?.at ?? null, c?.kind ?? null, c ? Number(c.id) : null, a.limit + 1];
  const page = `($3::timestamptz IS NULL OR (v.valid_from, K, v.id) < ($3::timestamptz, $4::text, $5::bigint))`;
  const parts: string[] = [];
  if (a.kind !== 'userModel') {
    parts.push(`SELECT 'memory' AS kind, v.id, v.valid_from AS at, row_to_json(x) AS row FROM memory_versions v,
        LATERAL (SELECT ${MEMORY_VERSION_COLUMNS}) x
      WHERE v.persona = $1 AND ${ACTOR_CLAUSE} AND ${page.replace('K', `'memory'`)}
      ORDER BY v.valid_from DESC, v.id DESC LIMIT $6`);
  }
  if (a.kind !== 'memory') {
    parts.push(`SELECT 'userModel' AS kind, v.id, v.valid_from AS at, row_to_json(x) AS row FROM user_model_versions v,
        LATERAL (SELECT ${USER_MODEL_VERSION_COLUMNS}) x
      WHERE v.persona = $1 AND ${ACTOR_CLAUSE} AND ${page.replace('K', `'userModel'`)}
      ORDER BY v.valid_from DESC, v.id DESC LIMIT $6`);
  }
  const { rows } = await q.query<{ kind: 'memory' | 'userModel'; id: string | number; at: Date; at_text: string; row: Record<string, unknown> }>(
    `SELECT kind, id, at, at::text AS at_text, row FROM (${parts.map((p) => `(${p})`).join(' UNION ALL ')}) u
     ORDER BY at DESC, kind DESC, id DESC LIMIT $6`,
    params,
  );
  const more = rows.length > a.limit;
  const pageRows = more ? rows.slice(0, a.limit) : rows;
  const items = pageRows.map((r): ActivityItem => {
    // row_to_json gives timestamps as text; the converters take Date-like values.
    const row = { ...r.row, valid_from: new Date(String(r.row.valid_from)), valid_to: r.row.valid_to ? new Date(String(r.row.valid_to)) : null };
    return r.kind === 'memory'
      ? { kind: 'memory', id: String(r.id), ...toMemoryVersion(row as never) }
      : { kind: 'userModel', id: String(r.id), ...toUserModelVersion(row as never) };
  });
  const last = pageRows[pageRows.length - 1];
  return {
    items,
    nextCursor: more && last ? Buffer.from(JSON.stringify({ at: last.at_text, kind: last.kind, id: String(last.id) })).toString('base64url') : null,
  };
}
