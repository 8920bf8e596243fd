import { z } from 'zod';
import type { CoreContext } from '../../context';
import type { JobContext } from '../../jobs/types';
import { personaPrivacy } from '../../personas/store';
import { uuid } from '../../schemas';
import { chatProviderFrom } from '../../providers/llm/config';
import { loadChatSettings } from '../../settings/chat-settings';
import { getConversationById } from '../conversation';
import { parseModelJson } from '../../providers/llm/model-json';
import { listUserModel, renderTopMemoriesBlock, renderUserModelBlock, topMemories, upsertUserModel, writeMemory } from '../stores';
import { normalise } from './dedupe';
import { applyProposals, renderResembling, resemblingMemories } from './supersessions';
import { MIN_REVIEW_CONFIDENCE, REVIEW_INSTRUCTIONS, REVIEW_JSON_SCHEMA, reviewOutput } from './schema';

const reviewArgs = z.object({ conversationId: uuid, transcript: z.string() });

async function knownMemories(ctx: CoreContext, persona: string): Promise<Set<string>> {
  const { rows } = await ctx.db.query<{ content: string }>(
    `(SELECT content FROM memories WHERE persona = $1 ORDER BY importance DESC, inserted_at DESC LIMIT 20)
     UNION (SELECT content FROM memories WHERE persona = $1 ORDER BY inserted_at DESC LIMIT 200)`,
    [persona],
  );
  return new Set(rows.map((r) => normalise(r.content)));
}

/**
 * The periodic review (trigger 2): one structured call over a recent slice,
 * then only confident, new facts are written. Nothing reaches the live turn.
 */
export async function memoryReviewWork(raw: Record<string, unknown>, jc: JobContext, ctx: CoreContext): Promise<void> {
  const args = reviewArgs.parse(raw);
  const conv = await getConversationById(ctx.db, args.conversationId);
  if (!conv || !args.transcript.trim()) {
    await jc.progress({ stage: 'skipped', done: 0, total: 0, label: 'the conversation is gone or empty' });
    return;
  }
  if (conv.incognito) {
    await jc.progress({ stage: 'skipped', done: 0, total: 0, label: 'an incognito chat is not reviewed' });
    return;
  }
  const persona = conv.persona;
  const provider = chatProviderFrom(await loadChatSettings(ctx), await personaPrivacy(ctx.db, persona));
  const model = await listUserModel(ctx.db, persona);
  const top = await topMemories(ctx.db, persona);
  const shown = await resemblingMemories(ctx, persona, args.transcript);
  const res = await provider.chat(
    [
      { role: 'system', content: REVIEW_INSTRUCTIONS },
      {
        role: 'user',
        content: `${renderUserModelBlock(model)}\n\n${renderTopMemoriesBlock(top)}\n\n${renderResembling(shown)}\n\n## Recent conversation\n${args.transcript}`,
      },
    ],
    [],
    { signal: jc.signal, jsonSchema: { name: 'memory_review', schema: REVIEW_JSON_SCHEMA } },
  );
  const json = parseModelJson(res.content);
  const parsed = json.ok ? reviewOutput.safeParse(json.value) : null;
  if (!parsed?.success) {
    const why = !json.ok ? json.error : (parsed?.error.issues[0]?.message ?? 'unexpected shape');
    console.warn(`[memory_review] malformed output for ${persona}: ${why}`);
    await jc.progress({ stage: 'malformed output', done: 0, total: 0, label: `nothing written: ${why}`.slice(0, 300) });
    return;
  }

  const current = new Map(model.map((e) => [e.dimension, normalise(e.content)]));
  const knownFacts = new Set(model.map((e) => normalise(e.content)));
  let written = 0;
  let skipped = 0;
  let superseded = 0;
  for (const u of parsed.data.userModel) {
    const n = normalise(u.content);
    if (u.confidence < MIN_REVIEW_CONFIDENCE || current.get(u.dimension) === n || knownFacts.has(n)) {
      skipped++;
      continue;
    }
    await upsertUserModel(ctx, persona, u.dimension, u.content, u.confidence, { actor: 'review', conversationId: conv.id });
    current.set(u.dimension, n);
    knownFacts.add(n);
    written++;
  }
  const known = await knownMemories(ctx, persona);
  for (const m of parsed.data.memories) {
    if (m.confidence < MIN_REVIEW_CONFIDENCE || known.has(normalise(m.content))) {
      skipped++;
      continue;
    }
    // A fact the persona already holds in other words writes nothing (docs/duplicates.md).
    const { memory: created, duplicateOf } = await writeMemory(ctx, {
      persona,
      content: m.content,
      category: m.category,
      importance: m.importance,
      origin: 'review',
      conversationId: conv.id,
    });
    known.add(normalise(m.content));
    if (duplicateOf) {
      skipped++;
      continue;
    }
    written++;
    if (m.supersedes.length) {
      superseded += (await applyProposals(ctx, { persona, conversationId: conv.id, newId: created.id }, m.supersedes, shown)).applied;
    }
  }
  const also = superseded ? `, ${superseded} superseded` : '';
  await jc.progress({ stage: 'done', done: written, total: written + skipped, label: `${written} written, ${skipped} skipped${also}` });
}
