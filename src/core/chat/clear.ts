import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { findConversation, requireConversation } from './conversation';
import { isBusy } from '../conversations/running';
import { resetConversation } from '../conversations/turn-state';

/**
 * /clear: the conversation starts over — messages, rolling summary and memory
 * snapshot go; memories, user model and knowledge stay.
 */
export async function clearConversation(ctx: CoreContext, persona: string, conversation?: string): Promise<number> {
  if (isBusy(ctx, persona)) throw new AppError('busy', 'Stop the current reply before clearing the conversation.');
  const conv = conversation ? (await requireConversation(ctx.db, persona, conversation)).id : (await findConversation(ctx.db, persona))?.id;
  if (!conv) return 0;
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ n: number }>(
      `WITH d AS (DELETE FROM messages WHERE conversation_id = $1 RETURNING 1)
       SELECT count(*)::int AS n FROM d`,
      [conv],
    );
    await resetConversation(tx, conv);
    return rows[0]?.n ?? 0;
  });
}
