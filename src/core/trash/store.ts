// The persona's trash (docs/trash.md): what a delete takes out of the live
// tables, kept whole until restored, emptied or purged.
import type { TrashItem, TrashKind } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { enqueueEmbeddings } from '../embeddings/enqueue';
import { type MemoryState, recordMemoryVersion } from '../history/memory-versions';
import { recordUserModelVersion } from '../history/user-model-versions';
import type { ChangeMeta } from '../history/meta';
import { toIso } from '../time';
import { keepRows, putBack } from './rows';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What a memory's version records (history/memory-versions.ts), read here rather than through the
 * memories domain, which sits above the trash (docs/architecture.md).
 */
const MEMORY_STATE = `m.id, m.persona, m.content, m.category, m.importance, m.day, m.superseded_by AS "supersededBy"`;

interface NewItem {
  id?: string;
  persona: string;
  kind: TrashKind;
  key: string;
  label: string;
  links?: Record<string, unknown>;
  meta: ChangeMeta;
  at: Date;
}

async function addItem(q: Queryable, item: NewItem): Promise<string> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO trash_items (id, persona, kind, item_key, label, links, deleted_at, deleted_by)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [item.id ?? null, item.persona, item.kind, item.key, item.label.slice(0, 500), JSON.stringify(item.links ?? {}), item.at, item.meta.actor],
  );
  return rows[0]!.id;
}

/**
 * Keeps the memory's row in the trash (under the memory's own id), inside the
 * caller's transaction, before the caller deletes it from `memories`.
 */
export async function trashMemoryIn(tx: Queryable, m: { id: string; persona: string; content: string; supersedes?: string[] | null }, meta: ChangeMeta, at: Date): Promise<void> {
  await addItem(tx, { id: m.id, persona: m.persona, kind: 'memory', key: m.id, label: m.content, links: { supersedes: m.supersedes ?? [] }, meta, at });
  await keepRows(tx, m.id, 'memories', 't.id = $1', [m.id]);
  // Its "not duplicates" marks (Tidy up, docs/duplicates.md) go and come back with it.
  await keepRows(tx, m.id, 'memory_not_duplicates', 't.a = $1 OR t.b = $1', [m.id]);
}

/** Keeps one dimension's row in the trash; false when there is no such dimension. */
export async function trashUserModelIn(tx: Queryable, persona: string, dimension: string, meta: ChangeMeta, at: Date): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM user_models WHERE persona = $1 AND dimension = $2', [persona, dimension]);
  if (!rows.length) return false;
  const id = await addItem(tx, { persona, kind: 'user_model', key: dimension, label: dimension, meta, at });
  await keepRows(tx, id, 'user_models', 't.persona = $1 AND t.dimension = $2', [persona, dimension]);
  return true;
}

/** Keeps a knowledge source, its chunks and their windows in the trash; false when there is nothing of it. */
export async function trashSourceIn(tx: Queryable, persona: string, source: string, meta: ChangeMeta, at: Date): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM knowledge_sources WHERE persona = $1 AND source = $2
     UNION ALL SELECT 1 FROM knowledge_chunks WHERE persona = $1 AND source = $2 LIMIT 1`,
    [persona, source],
  );
  if (!rows.length) return false;
  const id = await addItem(tx, { persona, kind: 'knowledge_source', key: source, label: source, meta, at });
  await keepRows(tx, id, 'knowledge_sources', 't.persona = $1 AND t.source = $2', [persona, source]);
  await keepRows(tx, id, 'knowledge_chunks', 't.persona = $1 AND t.source = $2', [persona, source]);
  await keepRows(
    tx,
    id,
    'knowledge_windows',
    't.chunk_id IN (SELECT c.id FROM knowledge_chunks c WHERE c.persona = $1 AND c.source = $2)',
    [persona, source],
  );
  return true;
}

interface ItemRow {
  id: string;
  persona: string;
  kind: TrashKind;
  item_key: string;
  label: string;
  links: { supersedes?: string[] };
  deleted_at: Date;
  deleted_by: string | null;
}

function toItem(r: ItemRow, trashDays: number): TrashItem {
  return {
    id: r.id,
    persona: r.persona,
    kind: r.kind,
    key: r.item_key,
    what: r.label,
    deletedAt: toIso(r.deleted_at),
    deletedBy: r.deleted_by,
    purgeAt: toIso(new Date(r.deleted_at.getTime() + trashDays * DAY_MS)),
  };
}

/** The trash id of the item last deleted under this key (what an Undo restores), or null. */
export async function latestTrashId(db: Queryable, persona: string, kind: TrashKind, key: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM trash_items WHERE persona = $1 AND kind = $2 AND item_key = $3 ORDER BY deleted_at DESC LIMIT 1',
    [persona, kind, key],
  );
  return rows[0]?.id ?? null;
}

/** What is in the persona's trash, newest deletion first. */
export async function listTrash(db: Queryable, persona: string, trashDays: number, limit = 500): Promise<TrashItem[]> {
  const { rows } = await db.query<ItemRow>(
    `SELECT id, persona, kind, item_key, label, links, deleted_at, deleted_by
     FROM trash_items WHERE persona = $1 ORDER BY deleted_at DESC, id LIMIT $2`,
    [persona, limit],
  );
  return rows.map((r) => toItem(r, trashDays));
}

/**
 * Puts one item back where it was, whole: same ids, fields, vectors and
 * history; a memory's supersession links where the other memory is still
 * there. A dimension or a source whose name is live again is not overwritten.
 */
/**
 * Links the memories a restored memory had replaced to it again (memories/relink.ts), inside the restore's
 * transaction: the memories table is the memories domain's, above this one, so the caller passes it in.
 */
export type RelinkReplaced = (tx: Queryable, ids: string[], by: string, persona: string, at: Date) => Promise<MemoryState[]>;

export async function restoreFromTrash(ctx: CoreContext, id: string, meta: ChangeMeta, trashDays: number, relink: RelinkReplaced): Promise<TrashItem> {
  const item = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<ItemRow>(
      `SELECT id, persona, kind, item_key, label, links, deleted_at, deleted_by FROM trash_items WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const r = rows[0];
    if (!r) throw new AppError('not_found', `There is nothing in the trash with id ${id} (restored already, or emptied).`);
    if (r.kind === 'memory') await restoreMemoryIn(ctx, tx, r, meta, relink);
    else if (r.kind === 'user_model') await restoreDimensionIn(ctx, tx, r, meta);
    else await restoreSourceIn(ctx, tx, r);
    await tx.query('DELETE FROM trash_items WHERE id = $1', [id]);
    return toItem(r, trashDays);
  });
  if (item.kind === 'memory') ctx.events.emit('memories.changed', { persona: item.persona, ids: [item.key], reason: 'restore' });
  else if (item.kind === 'user_model') ctx.events.emit('userModel.changed', { persona: item.persona });
  else ctx.events.emit('knowledge.changed', { persona: item.persona, source: item.key });
  ctx.events.emit('trash.changed', { persona: item.persona });
  return item;
}

async function restoreMemoryIn(ctx: CoreContext, tx: Queryable, r: ItemRow, meta: ChangeMeta, relink: RelinkReplaced): Promise<void> {
  // What it pointed at may have gone meanwhile: a link to a memory no longer there is dropped, not refused.
  await tx.query(
    `UPDATE trash_rows t SET row = t.row
       || jsonb_build_object('superseded_by', (SELECT to_jsonb(m.id) FROM memories m WHERE m.id::text = t.row->>'superseded_by' AND m.persona = t.row->>'persona'))
       || jsonb_build_object('conversation_id', (SELECT to_jsonb(c.id) FROM conversations c WHERE c.id::text = t.row->>'conversation_id' AND c.persona = t.row->>'persona'))
     WHERE t.item_id = $1 AND t.tbl = 'memories'`,
    [r.id],
  );
  await tx.query(
    `UPDATE trash_rows t SET row = t.row || jsonb_build_object('superseded_at', NULL)
     WHERE t.item_id = $1 AND t.tbl = 'memories' AND t.row->'superseded_by' = 'null'::jsonb`,
    [r.id],
  );
  const { rows: clash } = await tx.query('SELECT 1 FROM memories WHERE id = $1', [r.item_key]);
  if (clash.length) throw new AppError('conflict', `Memory ${r.item_key} exists already; there is nothing to restore.`);
  await putBack(tx, r.id, 'memories');
  // A mark whose other memory has gone meanwhile has nothing left to mark.
  await tx.query(
    `DELETE FROM trash_rows t WHERE t.item_id = $1 AND t.tbl = 'memory_not_duplicates'
       AND (NOT EXISTS (SELECT 1 FROM memories m WHERE m.id::text = t.row->>'a')
         OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.id::text = t.row->>'b'))`,
    [r.id],
  );
  await putBack(tx, r.id, 'memory_not_duplicates');
  // Its vector came back with it; only one never made (or made by another model) is asked for again,
  // and none where the server keeps no vectors (the column is bytea: docs/server-mode.md).
  const { rows: back } = await tx.query<MemoryState & { needs_vector: boolean }>(
    `SELECT ${MEMORY_STATE},
       (m.embedding IS NULL OR m.embedding_model IS DISTINCT FROM $2) AND pg_typeof(m.embedding) <> 'bytea'::regtype AS needs_vector
     FROM memories m WHERE m.id = $1`,
    [r.item_key, ctx.embedder.model()],
  );
  const { needs_vector, ...m } = back[0]!;
  await recordMemoryVersion(tx, m, 'undelete', { ...meta, reason: meta.reason ?? 'restored from the trash' }, ctx.now());
  if (needs_vector) await enqueueEmbeddings(tx, m.persona, 'memory', [m.id]);
  // What it had replaced is replaced again, where nothing else replaced it meanwhile.
  const relinked = await relink(tx, r.links.supersedes ?? [], m.id, m.persona, ctx.now());
  for (const x of relinked) {
    await recordMemoryVersion(tx, x, 'supersede', { ...meta, reason: `memory ${m.id} that replaced it was restored` }, ctx.now());
  }
}

async function restoreDimensionIn(ctx: CoreContext, tx: Queryable, r: ItemRow, meta: ChangeMeta): Promise<void> {
  const { rows: live } = await tx.query('SELECT 1 FROM user_models WHERE persona = $1 AND dimension = $2', [r.persona, r.item_key]);
  if (live.length) {
    throw new AppError('conflict', `"${r.item_key}" has been written again since it was deleted; delete or rename that one to restore this one.`);
  }
  await putBack(tx, r.id, 'user_models');
  const { rows } = await tx.query<{ content: string; confidence: number }>(
    'SELECT content, confidence FROM user_models WHERE persona = $1 AND dimension = $2',
    [r.persona, r.item_key],
  );
  await recordUserModelVersion(tx, { persona: r.persona, dimension: r.item_key, ...rows[0]! }, 'restore', { ...meta, reason: meta.reason ?? 'restored from the trash' }, ctx.now());
}

async function restoreSourceIn(ctx: CoreContext, tx: Queryable, r: ItemRow): Promise<void> {
  const { rows: live } = await tx.query(
    `SELECT 1 FROM knowledge_sources WHERE persona = $1 AND source = $2
     UNION ALL SELECT 1 FROM knowledge_chunks WHERE persona = $1 AND source = $2 LIMIT 1`,
    [r.persona, r.item_key],
  );
  if (live.length) {
    throw new AppError('conflict', `A document named "${r.item_key}" is in the knowledge base now; delete it first to restore the one in the trash.`);
  }
  await putBack(tx, r.id, 'knowledge_sources');
  await putBack(tx, r.id, 'knowledge_chunks');
  await putBack(tx, r.id, 'knowledge_windows');
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM knowledge_chunks WHERE persona = $1 AND source = $2
       AND (embedding IS NULL OR embedding_model IS DISTINCT FROM $3) ORDER BY chunk_index`,
    [r.persona, r.item_key, ctx.embedder.model()],
  );
  if (rows.length) await enqueueEmbeddings(tx, r.persona, 'knowledge', rows.map((x) => x.id));
}

/** Removes everything in the persona's trash for good; returns how many items went. */
export async function emptyTrash(ctx: CoreContext, persona: string): Promise<number> {
  const { affectedRows } = await ctx.db.query('DELETE FROM trash_items WHERE persona = $1', [persona]);
  if (affectedRows) ctx.events.emit('trash.changed', { persona });
  return affectedRows;
}

/** Removes for good what has been in any trash for `trashDays` or longer at `now`. */
export async function purgeTrash(ctx: CoreContext, trashDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - trashDays * DAY_MS);
  const { rows } = await ctx.db.query<{ persona: string }>(
    'DELETE FROM trash_items WHERE deleted_at <= $1 RETURNING persona',
    [cutoff],
  );
  for (const persona of new Set(rows.map((r) => r.persona))) ctx.events.emit('trash.changed', { persona });
  return rows.length;
}

/** Whether anything is due to be purged at `now` (a cheap look before a job is queued). */
export async function purgeDue(db: Queryable, trashDays: number, now: Date): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM trash_items WHERE deleted_at <= $1 LIMIT 1', [new Date(now.getTime() - trashDays * DAY_MS)]);
  return rows.length > 0;
}
