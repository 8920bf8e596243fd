import { z } from 'zod';
import type { UserModelEntry } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { requirePersona } from '../personas/store';
import { USER_MODEL_CONTENT_MAX } from '../../shared/contract/limits';
import { confidence, dimension, text } from '../schemas';
import { recordUserModelVersion } from '../history/user-model-versions';
import type { ChangeMeta } from '../history/meta';
import { trashUserModelIn } from '../trash/store';
import { deleteUserModel, upsertUserModel } from './store';

export const MAX_USER_MODEL_CHARS = USER_MODEL_CONTENT_MAX;

/** The contract's checks (src/shared/contract/fields.ts): the review and the agent's tool check with them too. */
export { confidence, dimension };

export const userModelInput = z.object({
  dimension,
  content: text(MAX_USER_MODEL_CHARS),
  confidence: confidence.default(5),
});

/**
 * Upserts one dimension (the agent's `user_model_write`, the review, the
 * editor). Validates here too, because model-made arguments arrive unchecked.
 */
export async function writeUserModel(
  ctx: CoreContext,
  persona: string,
  input: { dimension: string; content: string; confidence?: number },
  meta: ChangeMeta,
  change: 'upsert' | 'restore' = 'upsert',
): Promise<UserModelEntry> {
  const parsed = userModelInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('invalid_args', `Invalid user model entry: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'bad input'}`);
  }
  const entry = await ctx.db.transaction(async (tx) => {
    await requirePersona(tx, persona);
    const { rows } = await tx.query<{ content: string; confidence: number }>(
      'SELECT content, confidence FROM user_models WHERE persona = $1 AND dimension = $2 FOR UPDATE',
      [persona, parsed.data.dimension],
    );
    const before = rows[0];
    const entry = await upsertUserModel(tx, { persona, ...parsed.data }, ctx.now());
    // Writing the same value again is no new version (the review often restates what it knows).
    const changed = !before || before.content !== entry.content || before.confidence !== entry.confidence;
    if (changed) await recordUserModelVersion(tx, { ...entry }, change, meta, ctx.now());
    return entry;
  });
  ctx.events.emit('userModel.changed', { persona });
  return entry;
}

/** Deletes one dimension; its history stays, ending in a 'delete' version. */
export async function removeUserModel(ctx: CoreContext, persona: string, dimension: string, meta: ChangeMeta): Promise<boolean> {
  const deleted = await ctx.db.transaction(async (tx) => {
    await requirePersona(tx, persona);
    // The row goes to the trash first, in this transaction (docs/trash.md).
    const kept = await trashUserModelIn(tx, persona, dimension, meta, ctx.now());
    const gone = kept && (await deleteUserModel(tx, persona, dimension));
    if (gone) await recordUserModelVersion(tx, { persona, dimension, content: null, confidence: null }, 'delete', meta, ctx.now());
    return gone;
  });
  if (deleted) ctx.events.emit('userModel.changed', { persona });
  if (deleted) ctx.events.emit('trash.changed', { persona });
  return deleted;
}
