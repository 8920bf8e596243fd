import type { ChatPrompt } from '../../shared/api';
import type { CoreContext } from '../context';
import { baseInstructions } from './base-instructions';
import type { ConversationRow } from './conversation';
import { snapshotOrRender } from '../conversations/snapshot';
import { listUserModel, renderUserModelBlock } from './stores';

/** Told to the model in an incognito chat, whose saving tools are not offered (docs/privacy.md). */
export const INCOGNITO_NOTE = `## Incognito chat
This chat is incognito: nothing from it is remembered. Saving tools (memory, user_model_write, knowledge_ingest) are not available here; read with recall as usual, and do not promise to remember anything.`;

export const SUMMARY_HEADING = '## Summary of the earlier conversation';

/** The system prompt, in the order of docs/memory-model.md: base, user model (fresh), top memories (snapshot), summary. */
export async function assemblePrompt(ctx: CoreContext, conv: ConversationRow): Promise<ChatPrompt> {
  // The persona's display name (what the person calls it, current after a rename), not its id.
  const { rows } = await ctx.db.query<{ name: string }>('SELECT name FROM personas WHERE id = $1', [conv.persona]);
  const base = baseInstructions(rows[0]?.name ?? conv.persona) + (conv.incognito ? `\n\n${INCOGNITO_NOTE}` : '');
  const userModel = renderUserModelBlock(await listUserModel(ctx.db, conv.persona));
  // Rendered and stored on first use, then reused verbatim (prefix-cache stability).
  const topMemories = await snapshotOrRender(ctx.db, conv.persona, conv.id);
  const summary = conv.summary ? `${SUMMARY_HEADING}\n${conv.summary}` : '';
  const system = [base, userModel, topMemories, summary].filter((b) => b !== '').join('\n\n');
  return { system, blocks: { base, userModel, topMemories, summary } };
}
