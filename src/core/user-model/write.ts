import { z } from 'zod';
import type { UserModelEntry } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { requirePersona } from '../personas/store';
import { text } from '../schemas';
import { upsertUserModel } from './store';

export const MAX_USER_MODEL_CHARS = 4_000;

/** Trimmed, never empty, short, one line: it is printed inside `[dimension, conf=N]`. */
export const dimension = z
  .string()
  .trim()
  .min(1, 'a dimension name must not be empty')
  .max(64, 'a dimension name is at most 64 characters')
  .regex(/^[^[\],\r\n]+$/, 'a dimension name cannot contain brackets, commas or line breaks');

export const confidence = z.number().int('confidence is a whole number').min(1).max(10);

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
): Promise<UserModelEntry> {
  const parsed = userModelInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('invalid_args', `Invalid user model entry: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'bad input'}`);
  }
  await requirePersona(ctx.db, persona);
  const entry = await upsertUserModel(ctx.db, { persona, ...parsed.data }, ctx.now());
  ctx.events.emit('userModel.changed', { persona });
  return entry;
}
