// Supersession (docs/history.md): a newer memory replaces an older one that
// stays stored, out of recall and the top-20 block. Never a deletion.
import type { Memory } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { recordMemoryVersion } from '../history/memory-versions';
import type { ChangeMeta } from '../history/meta';
import { insertMemoryIn, type MemoryInput } from './mutate';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './row';

async function lockMemory(tx: Queryable, id: string, persona: string | undefined, model: string): Promise<Memory> {
  const { rows } = await tx.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = $1 FOR UPDATE`, [id]);
  const row = rows[0];
  if (!row || (persona !== undefined && row.persona !== persona)) {
    throw new AppError('not_found', persona !== undefined ? `Persona "${persona}" has no memory ${id}.` : `There is no memory ${id}.`);
  }
  return toMemory(row, model);
}

/**
 * Links `id` to the newer `by`, inside the caller's transaction. Only a
 * current memory of the same persona can replace another, so links form
 * chains and never cycles. Linking again to the same memory changes nothing.
 */
export async function supersedeIn(
  tx: Queryable,
  ctx: CoreContext,
  id: string,
  by: string,
  meta: ChangeMeta,
  persona?: string,
): Promise<Memory> {
  if (id === by) throw new AppError('invalid_args', 'A memory cannot supersede itself.');
  const model = ctx.embedder.model();
  const old = await lockMemory(tx, id, persona, model);
  const newer = await lockMemory(tx, by, persona, model);
  if (old.persona !== newer.persona) {
    throw new AppError('invalid_args', 'A memory can only be superseded by a memory of the same persona.');
  }
  if (newer.supersededBy) {
    throw new AppError('conflict', `Memory ${by} is itself superseded by ${newer.supersededBy}; supersede with the current one.`);
  }
  if (old.supersededBy === by) return old;
  if (old.supersededBy) {
    throw new AppError('conflict', `Memory ${id} is already superseded by ${old.supersededBy}; undo that first.`);
  }
  const { rows } = await tx.query<MemoryRow>(
    `UPDATE memories AS m SET superseded_by = $2, superseded_at = $3 WHERE m.id = $1 RETURNING ${MEMORY_COLUMNS}`,
    [id, by, ctx.now()],
  );
  const after = toMemory(rows[0]!, model);
  await recordMemoryVersion(tx, after, 'supersede', meta, ctx.now());
  return after;
}

export async function supersedeMemory(ctx: CoreContext, id: string, by: string, meta: ChangeMeta, persona?: string): Promise<Memory> {
  const m = await ctx.db.transaction((tx) => supersedeIn(tx, ctx, id, by, meta, persona));
  ctx.events.emit('memories.changed', { persona: m.persona, ids: [id, by], reason: 'update' });
  return m;
}

/** Makes `id` current again (one click in the browser). Undoing what is not superseded changes nothing. */
export async function unsupersedeMemory(ctx: CoreContext, id: string, meta: ChangeMeta, persona?: string): Promise<Memory> {
  const model = ctx.embedder.model();
  const { memory, by } = await ctx.db.transaction(async (tx) => {
    const old = await lockMemory(tx, id, persona, model);
    if (!old.supersededBy) return { memory: old, by: null };
    const { rows } = await tx.query<MemoryRow>(
      `UPDATE memories AS m SET superseded_by = NULL, superseded_at = NULL WHERE m.id = $1 RETURNING ${MEMORY_COLUMNS}`,
      [id],
    );
    const after = toMemory(rows[0]!, model);
    await recordMemoryVersion(tx, after, 'unsupersede', meta, ctx.now());
    return { memory: after, by: old.supersededBy };
  });
  if (by) ctx.events.emit('memories.changed', { persona: memory.persona, ids: [id, by], reason: 'update' });
  return memory;
}

/**
 * The memory tool's `supersede`: writes the new fact and links the old one in
 * one transaction, so a bad old id leaves nothing written. Returns the new memory.
 */
export async function writeSuperseding(ctx: CoreContext, input: MemoryInput, oldId: string, meta: ChangeMeta): Promise<{ memory: Memory; old: Memory }> {
  const out = await ctx.db.transaction(async (tx) => {
    // The old one is checked first: a wrong id must not cost a written memory.
    await lockMemory(tx, oldId, input.persona, ctx.embedder.model());
    const memory = await insertMemoryIn(tx, ctx, input);
    const old = await supersedeIn(tx, ctx, oldId, memory.id, meta, input.persona);
    const { rows } = await tx.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = $1`, [memory.id]);
    return { memory: toMemory(rows[0]!, ctx.embedder.model()), old };
  });
  ctx.events.emit('memories.changed', { persona: out.memory.persona, ids: [out.memory.id, oldId], reason: 'write' });
  return out;
}
