// The chat's doors into the other stores (memories, user model, recall,
// knowledge, settings). One file, so the agent loop and the jobs depend on
// these few functions rather than on each store's internals.
import type { Memory, MemoryFilters, MemoryOrigin, RecallHit, UserModelEntry } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { deleteMemory } from '../memories/mutate';
import { type CheckedWrite, findNearDuplicate, writeUnlessDuplicate } from '../memories/duplicates';
import { recall } from '../recall/recall';
import { writeUserModel } from '../user-model/write';
import { actorOfOrigin, type ChangeMeta } from '../history/meta';
import { userModelHistory } from '../history/user-model-versions';
import { writeSuperseding } from '../memories/supersede';

export { ingestForTool } from '../knowledge/tool';
export { renderTopMemoriesBlock, topMemories } from '../memories/top';
export { renderUserModelBlock } from '../user-model/block';
export { listUserModel } from '../user-model/store';
export { supersedeMemory } from '../memories/supersede';
export { oneLine } from '../memories/top';
export { recall };

export interface MemoryDraft {
  persona: string;
  content: string;
  category: string | null;
  importance: number;
  origin: MemoryOrigin;
  conversationId: string | null;
}

/** Writes the memory unless the persona already holds it in other words: then `duplicateOf` names that one (docs/duplicates.md). */
export function writeMemory(ctx: CoreContext, d: MemoryDraft): Promise<CheckedWrite> {
  return writeUnlessDuplicate(ctx, d);
}

/**
 * The memory tool's `supersede`: the new fact, linked to the old one of this
 * persona, in one transaction; nothing when another current memory already
 * says the new fact (`duplicateOf`).
 */
export async function writeSupersedingMemory(ctx: CoreContext, d: MemoryDraft, oldId: string, reason: string | null): Promise<CheckedWrite> {
  const found = await findNearDuplicate(ctx, d.persona, d.content, { exclude: [oldId] });
  if (found) return { memory: found.memory, duplicateOf: found.memory.id };
  const actor = actorOfOrigin(d.origin);
  const { memory } = await writeSuperseding(ctx, { ...d, actor }, oldId, { actor, conversationId: d.conversationId, reason });
  return { memory, duplicateOf: null };
}

/** `user_model_history` for the model: one line per version, oldest first. */
export async function userModelHistoryAsText(ctx: CoreContext, persona: string, dimension: string): Promise<string> {
  const versions = await userModelHistory(ctx.db, persona, dimension);
  if (!versions.length) return `The user model has never had a dimension "${dimension}".`;
  return versions
    .map((v) => {
      const span = `${v.validFrom.slice(0, 10)} → ${v.validTo ? v.validTo.slice(0, 10) : 'now'}`;
      const what = v.content === null ? '(deleted)' : `[conf=${v.confidence}] ${v.content.replace(/\s*[\r\n]+\s*/g, ' ')}`;
      return `v${v.version} ${span} by ${v.actor ?? 'unknown'}: ${what}`;
    })
    .join('\n');
}

/** Deletes one memory of this persona only; false when it is not one of the persona's. */
export async function deleteMemoryOfPersona(ctx: CoreContext, persona: string, id: string): Promise<boolean> {
  try {
    await deleteMemory(ctx, id, { actor: 'tool' }, persona);
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === 'not_found') return false;
    throw e;
  }
}

export function upsertUserModel(
  ctx: CoreContext,
  persona: string,
  dimension: string,
  content: string,
  confidence: number,
  meta: ChangeMeta,
): Promise<UserModelEntry> {
  return writeUserModel(ctx, persona, { dimension, content, confidence }, meta);
}

/** A tool call must not wait long on the embedding provider: past this, recall ranks by text. */
const QUERY_EMBED_TIMEOUT_MS = 3_000;

function hitLine(h: RecallHit): string {
  return `${h.tag} ${h.content.replace(/\s*[\r\n]+\s*/g, ' ')}`;
}

/** `recall` for the model: the tagged hits as text, best first. */
export async function recallAsText(
  ctx: CoreContext,
  persona: string,
  args: { query: string; limit: number; date?: string; filters?: MemoryFilters },
): Promise<string> {
  const hits = await recall(ctx, { persona, ...args, rewrite: true, embedSignal: AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS) });
  if (hits.length === 0) return `No memories or knowledge match "${args.query}".`;
  return hits.map(hitLine).join('\n');
}
