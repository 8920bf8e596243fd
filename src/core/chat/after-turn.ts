import type { CoreContext } from '../context';
import type { Queryable } from '../db/client';
import { enqueueJob } from '../jobs/enqueue';
import type { ChatSettings } from '../settings/chat-settings';
import { bumpNudge } from '../conversations/turn-state';
import type { ConversationRow } from './conversation';
import { estimateTokens } from './history';
import { listMessages } from './messages';
import { assemblePrompt } from './prompt';
import { transcriptSlice } from './review/transcript';

/** A compaction of this conversation is already queued or running (another conversation's does not count). */
async function compactionPending(q: Queryable, conv: ConversationRow): Promise<boolean> {
  // The conversation's row lock makes check-then-enqueue one step for Hearths sharing a server: the second waits, then sees the job.
  await q.query('SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE', [conv.id]);
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs
      WHERE queue = 'compaction' AND persona = $1 AND args->>'conversationId' = $2 AND state IN ('available', 'running', 'retryable')`,
    [conv.persona, conv.id],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * Background work a finished turn may call for — never done inside the turn:
 * the periodic review (every `reviewEvery` successful turns) and compaction
 * (once the unfolded conversation outgrows the context budget; an incognito
 * conversation's compaction folds without the flush, compaction/work.ts).
 */
export async function afterTurn(ctx: CoreContext, conv: ConversationRow, settings: ChatSettings, successful: boolean): Promise<void> {
  const messages = await listMessages(ctx.db, conv.id, true);
  // An incognito chat triggers no review (docs/privacy.md).
  if (successful && !conv.incognito) {
    // Bump and enqueue commit together: a crash never leaves a reset counter without its job.
    await ctx.db.transaction(async (tx) => {
      if (!(await bumpNudge(tx, conv.id, settings.reviewEvery))) return;
      await enqueueJob(tx, {
        queue: 'memory_review',
        persona: conv.persona,
        args: { conversationId: conv.id, transcript: transcriptSlice(messages) },
      });
    });
  }
  const system = (await assemblePrompt(ctx, conv)).system;
  if (estimateTokens(messages, system) > settings.contextBudgetTokens) {
    await ctx.db.transaction(async (tx) => {
      if (await compactionPending(tx, conv)) return;
      await enqueueJob(tx, { queue: 'compaction', persona: conv.persona, args: { conversationId: conv.id } });
    });
  }
  ctx.wakeJobs();
}
