import { z } from 'zod';
import type { CoreContext } from '../../context';
import type { JobContext } from '../../jobs/types';
import { personaPrivacy } from '../../personas/store';
import { uuid } from '../../schemas';
import { chatProviderFrom } from '../../providers/llm/config';
import { loadChatSettings } from '../../settings/chat-settings';
import { getConversationById } from '../conversation';
import { listMessages } from '../messages';
import { commitFold } from './fold';
import { flushSlice } from './flush';
import { planFold, renderSlice } from './plan';
import { summarise } from './summarise';

const compactionArgs = z.object({ conversationId: uuid });

/**
 * Trigger 3: fold old messages into the rolling summary, after one flush call
 * on exactly the slice that folds. The plan is computed once and used by both.
 */
export async function compactionWork(raw: Record<string, unknown>, jc: JobContext, ctx: CoreContext): Promise<void> {
  const { conversationId } = compactionArgs.parse(raw);
  const conv = await getConversationById(ctx.db, conversationId);
  if (!conv) return;
  const settings = await loadChatSettings(ctx);
  const provider = chatProviderFrom(settings, await personaPrivacy(ctx.db, conv.persona));
  const plan = planFold(await listMessages(ctx.db, conv.id, true), settings.contextBudgetTokens);
  if (plan.fold.length === 0) {
    await jc.progress({ stage: 'nothing to fold', done: 0, total: 0 });
    return;
  }
  const slice = renderSlice(plan.fold);
  await jc.progress({ stage: 'flush', done: 0, total: plan.fold.length });
  // An incognito chat is folded like any other, but nothing from it is flushed into memories (docs/privacy.md).
  const flush = conv.incognito
    ? { written: [], problem: 'incognito chat: nothing flushed' }
    : await flushSlice(ctx, provider, { persona: conv.persona, conversationId: conv.id }, slice, jc.signal);
  if (flush.problem) console.warn(`[compaction] ${conv.persona}: ${flush.problem}`);

  await jc.progress({ stage: 'summarise', done: 0, total: plan.fold.length, label: flush.problem ?? `flush saved ${flush.written.length}` });
  const summary = await summarise(provider, conv.summary, slice, jc.signal);

  const ids = plan.fold.map((m) => m.id);
  // Nothing is folded if a /clear or another Hearth's compaction changed the conversation meanwhile.
  const folded = await commitFold(ctx.db, conv.id, ids, conv.summary, summary);
  await jc.progress({
    stage: folded ? 'done' : 'conversation changed; nothing folded',
    done: folded,
    total: ids.length,
    label: `${flush.problem ?? `flush saved ${flush.written.length} memories`}; folded ${folded} messages`,
  });
}
