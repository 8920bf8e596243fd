// The items the trash crash test moves in and out of the trash, and where each one is.
import type { TrashKind } from '../../shared/api';
import type { Core } from '../index';

export const TRASH_CRASH_PERSONA = 'crash';

export interface CrashItem {
  kind: TrashKind;
  key: string;
}

/** Every memory, dimension and document of the persona, live or in its trash. */
export async function readCrashItems(core: Core): Promise<CrashItem[]> {
  const { rows } = await core.ctx.db.query<CrashItem>(
    `SELECT 'memory' AS kind, id::text AS key FROM memories WHERE persona = $1
     UNION SELECT 'user_model', dimension FROM user_models WHERE persona = $1
     UNION SELECT 'knowledge_source', source FROM knowledge_sources WHERE persona = $1
     UNION SELECT kind, item_key FROM trash_items WHERE persona = $1
     ORDER BY 1, 2`,
    [TRASH_CRASH_PERSONA],
  );
  return rows;
}

/** Where an item is: live, in the trash, both (a bug) or nowhere (lost). Each as a fingerprint of what it holds. */
export async function whereIs(core: Core, item: CrashItem): Promise<{ live: string | null; trash: string | null }> {
  const db = core.ctx.db;
  const p = TRASH_CRASH_PERSONA;
  if (item.kind === 'memory') {
    const live = await db.query<{ f: string }>(
      `SELECT content || '|' || importance || '|' || (embedding IS NOT NULL) AS f FROM memories WHERE id = $1`,
      [item.key],
    );
    const trash = await db.query<{ f: string }>(
      `SELECT (r.row->>'content') || '|' || (r.row->>'importance') || '|' || (r.row->'embedding' <> 'null'::jsonb) AS f
       FROM trash_items i JOIN trash_rows r ON r.item_id = i.id WHERE i.kind = 'memory' AND i.item_key = $1`,
      [item.key],
    );
    return { live: live.rows[0]?.f ?? null, trash: trash.rows[0]?.f ?? null };
  }
  if (item.kind === 'user_model') {
    const live = await db.query<{ f: string }>(`SELECT content || '|' || confidence AS f FROM user_models WHERE persona = $1 AND dimension = $2`, [p, item.key]);
    const trash = await db.query<{ f: string }>(
      `SELECT (r.row->>'content') || '|' || (r.row->>'confidence') AS f
       FROM trash_items i JOIN trash_rows r ON r.item_id = i.id WHERE i.persona = $1 AND i.kind = 'user_model' AND i.item_key = $2`,
      [p, item.key],
    );
    return { live: live.rows[0]?.f ?? null, trash: trash.rows[0]?.f ?? null };
  }
  const live = await db.query<{ f: string }>(
    `SELECT s.bytes || '|' || (SELECT count(embedding) FROM knowledge_chunks c WHERE c.persona = s.persona AND c.source = s.source) AS f
     FROM knowledge_sources s WHERE s.persona = $1 AND s.source = $2`,
    [p, item.key],
  );
  const trash = await db.query<{ f: string }>(
    `SELECT (SELECT r.row->>'bytes' FROM trash_rows r WHERE r.item_id = i.id AND r.tbl = 'knowledge_sources') || '|' ||
            (SELECT count(*) FROM trash_rows r WHERE r.item_id = i.id AND r.tbl = 'knowledge_chunks' AND r.row->'embedding' <> 'null'::jsonb) AS f
     FROM trash_items i WHERE i.persona = $1 AND i.kind = 'knowledge_source' AND i.item_key = $2`,
    [p, item.key],
  );
  return { live: live.rows[0]?.f ?? null, trash: trash.rows[0]?.f ?? null };
}
