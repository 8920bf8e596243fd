// The memory writes every caller uses (handlers, the agent's tools, review,
// flush): each row change and its embedding job commit in one transaction.
import type { Actor, Memory, MemoryOrigin } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { enqueueEmbeddings } from '../embeddings/enqueue';
import { recordMemoryVersion } from '../history/memory-versions';
import { actorOfOrigin, type ChangeMeta } from '../history/meta';
import { requirePersona } from '../personas/store';
import { localDay } from '../time';
import { readSettings } from '../settings/store';
import { restoreFromTrash, trashMemoryIn } from '../trash/store';
import { supersedeAgainIn } from './relink';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './row';
import { getMemory, insertMemory } from './store';

export interface MemoryInput {
  persona: string;
  content: string;
  category?: string | null;
  importance?: number;
  day?: string;
  origin?: MemoryOrigin;
  conversationId?: string | null;
  /** Who wrote it; by default the one its origin names (docs/history.md). */
  actor?: Actor;
  /** Why, kept in the first version (a review's supersession reason). */
  reason?: string | null;
}

/** Inserts one memory, its first version and its embedding job, inside the caller's transaction. */
export async function insertMemoryIn(tx: Queryable, ctx: CoreContext, input: MemoryInput): Promise<Memory> {
  await requirePersona(tx, input.persona);
  const m = await insertMemory(
    tx,
    {
      persona: input.persona,
      content: input.content,
      category: input.category ? input.category : null,
      importance: input.importance ?? 5,
      day: input.day ?? localDay(ctx.now()),
      origin: input.origin ?? 'manual',
      conversationId: input.conversationId ?? null,
      // ctx.now(), not the database clock: recall's recency is measured against ctx.now().
      insertedAt: ctx.now(),
    },
    ctx.embedder.model(),
  );
  await recordMemoryVersion(
    tx,
    m,
    'create',
    { actor: input.actor ?? actorOfOrigin(m.origin), conversationId: m.conversationId, reason: input.reason ?? null },
    ctx.now(),
  );
  await enqueueEmbeddings(tx, m.persona, 'memory', [m.id]);
  return m;
}

export async function writeMemory(ctx: CoreContext, input: MemoryInput): Promise<Memory> {
  const memory = await ctx.db.transaction((tx) => insertMemoryIn(tx, ctx, input));
  ctx.events.emit('memories.changed', { persona: memory.persona, ids: [memory.id], reason: 'write' });
  return memory;
}

export interface MemoryPatch {
  content?: string;
  category?: string | null;
  importance?: number;
  day?: string;
}

/**
 * A content change drops the vector (and its model and error) and asks for a
 * new one. A change of any field keeps the previous state as a version; a
 * patch that changes nothing writes no version. With `persona`, only a memory
 * of that persona can change.
 */
export async function updateMemory(
  ctx: CoreContext,
  id: string,
  patch: MemoryPatch,
  meta: ChangeMeta,
  options: { persona?: string; change?: 'update' | 'restore' } = {},
): Promise<Memory> {
  const memory = await ctx.db.transaction(async (tx) => {
    const before = await getMemory(tx, id, ctx.embedder.model());
    if (options.persona !== undefined && before.persona !== options.persona) {
      throw new AppError('not_found', `Persona "${options.persona}" has no memory ${id}.`);
    }
    const contentChanged = patch.content !== undefined && patch.content !== before.content;
    const { rows } = await tx.query<MemoryRow>(
      `UPDATE memories AS m SET
         content = $2,
         category = $3,
         importance = $4,
         day = $5::date,
         embedding = CASE WHEN $6 THEN NULL ELSE embedding END,
         embedding_model = CASE WHEN $6 THEN NULL ELSE embedding_model END,
         embedding_error = CASE WHEN $6 THEN NULL ELSE embedding_error END,
         updated_at = $7
       WHERE m.id = $1
       RETURNING ${MEMORY_COLUMNS}`,
      [
        id,
        patch.content ?? before.content,
        patch.category === undefined ? before.category : patch.category || null,
        patch.importance ?? before.importance,
        patch.day ?? before.day,
        contentChanged,
        ctx.now(),
      ],
    );
    if (contentChanged) await enqueueEmbeddings(tx, before.persona, 'memory', [id]);
    const after = toMemory(rows[0]!, ctx.embedder.model());
    const changed =
      after.content !== before.content ||
      after.category !== before.category ||
      after.importance !== before.importance ||
      after.day !== before.day;
    if (changed) await recordMemoryVersion(tx, after, options.change ?? 'update', meta, ctx.now());
    return after;
  });
  ctx.events.emit('memories.changed', { persona: memory.persona, ids: [id], reason: 'update' });
  return memory;
}

/**
 * Moves one memory to its persona's trash (docs/trash.md) and returns it. With
 * `persona`, only a memory of that persona can go: the model's delete must
 * never reach another persona.
 */
export async function deleteMemory(ctx: CoreContext, id: string, meta: ChangeMeta, persona?: string): Promise<Memory> {
  const memory = await ctx.db.transaction(async (tx) => {
    const { rows: found } = await tx.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories AS m WHERE m.id = $1 AND ($2::text IS NULL OR m.persona = $2) FOR UPDATE OF m`,
      [id, persona ?? null],
    );
    if (!found[0]) {
      throw new AppError('not_found', persona ? `Persona "${persona}" has no memory ${id}.` : `There is no memory ${id}.`);
    }
    const m = toMemory(found[0], ctx.embedder.model());
    // The row goes whole (vector, links) into the trash, in this transaction: a crash leaves it live or trashed.
    await trashMemoryIn(tx, m, meta, ctx.now());
    await tx.query('DELETE FROM memories WHERE id = $1', [id]);
    // Its history stays: the last version says it was deleted, by whom.
    await recordMemoryVersion(tx, m, 'delete', meta, ctx.now());
    // What it had replaced is current again (the foreign key cleared the links): say so in their history.
    const { rows: freed } = await tx.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ANY($1::uuid[])`,
      [m.supersedes ?? []],
    );
    for (const r of freed) {
      await recordMemoryVersion(tx, toMemory(r, ctx.embedder.model()), 'unsupersede', { ...meta, reason: `memory ${id} that replaced it was deleted` }, ctx.now());
    }
    return m;
  });
  ctx.events.emit('memories.changed', { persona: memory.persona, ids: [id], reason: 'delete' });
  ctx.events.emit('trash.changed', { persona: memory.persona });
  return memory;
}

/**
 * Puts back a deleted memory from its persona's trash (the browser's undo): same
 * id, fields, vector, versions and links (docs/trash.md).
 */
export async function restoreMemory(ctx: CoreContext, id: string, meta: ChangeMeta): Promise<Memory> {
  const { rows: live } = await ctx.db.query('SELECT 1 FROM memories WHERE id = $1', [id]);
  if (live.length) throw new AppError('conflict', `Memory ${id} exists already; there is nothing to restore.`);
  const { trashDays } = await readSettings(ctx);
  // A memory's trash item has the memory's id (docs/trash.md): no other kind can answer to it.
  await restoreFromTrash(ctx, id, meta, trashDays, supersedeAgainIn);
  return getMemory(ctx.db, id, ctx.embedder.model());
}
